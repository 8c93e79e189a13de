import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './paths.ts';

const run = promisify(execFile);

/**
 * Applies pending migrations with `prisma migrate deploy` (the offline
 * JavaScript engine, see prisma.config.ts). Safe to run on every start.
 */
export async function applyMigrations(url: string): Promise<void> {
  const prismaCli = path.join(repoRoot, 'node_modules', 'prisma', 'build', 'index.js');
  try {
    await run(process.execPath, [prismaCli, 'migrate', 'deploy'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
    });
  } catch (err) {
    const output = err instanceof Error && 'stderr' in err ? String((err as { stderr: unknown }).stderr) : '';
    throw new Error(`migrations failed: ${output.trim() || String(err)}`, { cause: err });
  }
}
