/**
 * Applies pending migrations with `prisma migrate deploy`, then their data step (map-usernames.ts); safe on
 * every start. Refused through a transaction pooler, where Prisma's advisory lock would stay held: migrate
 * through a direct connection (DATABASE_DIRECT_URL, docs/operations.md).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describeDatabase } from './describe-database.ts';
import { mapUsernames } from './map-usernames.ts';
import { repoRoot } from './prisma-folder.ts';
import { isTransactionPooled } from './transaction-pooling.ts';

/** What `prisma migrate deploy` prints when it has finished successfully. */
const DONE = /No pending migrations to apply|All migrations have been successfully applied/;

/**
 * Prisma 6.19's WebAssembly schema engine leaves a 10 s timer running after
 * the command has finished, so the CLI idles 10 s before exiting; once it has
 * printed its success line we ask it to stop (SIGTERM): prisma.config.ts then
 * closes its sessions, which releases the lock, and exits.
 */
export async function applyMigrations(url: string): Promise<void> {
  // Unreachable: no answer here; Prisma's own attempt reports the reason.
  if (await isTransactionPooled(url).catch(() => false)) {
    throw new Error(`migrations refused: ${describeDatabase(url)} is a transaction pooler (such as PgBouncer's pool_mode = transaction), where Prisma's advisory lock would stay held: migrate through a direct connection (DATABASE_DIRECT_URL)`);
  }
  await runPrismaMigrateDeploy(url);
  const { unmapped } = await mapUsernames(url);
  if (unmapped > 0) console.error(`${unmapped} account(s) have no username key and cannot sign in until renamed (docs/oauth.md, "Usernames")`);
}

function runPrismaMigrateDeploy(url: string): Promise<void> {
  const prismaCli = path.join(repoRoot, 'node_modules', 'prisma', 'build', 'index.js');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [prismaCli, 'migrate', 'deploy'], {
      cwd: repoRoot,
      env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: '1', CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    let done = false;
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      if (!done && DONE.test(output)) {
        done = true;
        setTimeout(() => child.kill('SIGTERM'), 200).unref();
      }
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => {
      if (done || code === 0) return resolve();
      const lines = output.split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('npm warn'));
      // Prisma's own lines ("Loaded Prisma config …", "Datasource …") come first: the reason starts at "Error:".
      const reason = lines.findIndex((line) => line.startsWith('Error:'));
      reject(new Error(`migrations failed: ${lines.slice(reason >= 0 ? reason : -6).slice(0, 6).join(' ') || `prisma exited with code ${code}`}`));
    });
  });
}
