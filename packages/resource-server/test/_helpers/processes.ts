/**
 * Real processes for end-to-end tests: the authorization server and
 * resource servers started as `node --import tsx <package>/src/main.ts`,
 * each waited for until it logs that it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { repoRoot } from '@heroes/db';

export interface ChildServer {
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startChild(entry: string, env: Record<string, string>, port: number, ready: RegExp): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, entry)], {
    cwd: repoRoot,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = `http://127.0.0.1:${port}`;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${entry} did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return {
    url,
    child,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      }),
  };
}

/** The authorization server process on `port`, issuing URLs for `publicBaseUrl`. */
export async function startAuthProcess(databaseUrl: string, port: number, publicBaseUrl: string, env: Record<string, string> = {}) {
  return startChild(
    'packages/auth-server/src/main.ts',
    { DATABASE_URL: databaseUrl, AUTH_PORT: String(port), AUTH_HOST: '127.0.0.1', PUBLIC_BASE_URL: publicBaseUrl, BCRYPT_COST: '4', ...env },
    port,
    /authorization server listening/,
  );
}

/** A resource-server process on `port`, in front of the authorization server at authServerUrl. */
export async function startResourceProcess(databaseUrl: string, port: number, authServerUrl: string, env: Record<string, string> = {}) {
  return startChild(
    'packages/resource-server/src/main.ts',
    {
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      AUTH_SERVER_URL: authServerUrl,
      RESOURCE_SERVER_CLIENT_SECRET: 'e2e-resource-server-secret',
      BCRYPT_COST: '4',
      ...env,
    },
    port,
    /resource server listening/,
  );
}
