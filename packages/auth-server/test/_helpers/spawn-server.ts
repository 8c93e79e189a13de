/**
 * Starts `node --import tsx src/main.ts` as a real process and waits for its
 * "listening" log line.
 */
import { spawnProcess, type SpawnedProcess } from '@heroes/test-kit';
import { packageDir } from './paths.ts';

export interface SpawnedServer extends SpawnedProcess {
  url: string;
}

export async function spawnServer(env: Record<string, string>, timeoutMs = 90_000): Promise<SpawnedServer> {
  const server = await spawnProcess(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: packageDir,
    env: { LOG_LEVEL: 'info', ...env },
    ready: /"url":"(http:\/\/[^"]+)"[^\n]*authorization server listening/,
    timeoutMs,
  });
  return { ...server, url: server.match[1]! };
}
