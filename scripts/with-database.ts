/**
 * Runs a command with DATABASE_URL: the one given, else the embedded server (started for the command, stopped
 * after) as its superuser, since test files create their own databases, which the service's role may not.
 * Usage: node --import tsx scripts/with-database.ts <command> [args...]
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { resolveDatabaseUrl } from '@heroes/embedded-postgres';

/** Runs `command` with DATABASE_URL (and `extraEnv`) set; resolves to its exit code. */
export async function runWithDatabase(command: string, args: string[], extraEnv: Record<string, string> = {}): Promise<number> {
  const database = await resolveDatabaseUrl({ log: (line) => console.error(line) });
  if (database.source === 'embedded') console.error(`using the embedded PostgreSQL server at ${new URL(database.url).host}`);

  const child = spawn(command, args, { stdio: 'inherit', env: { ...process.env, ...extraEnv, DATABASE_URL: database.adminUrl } });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  const code: number = await new Promise((resolve) => child.on('exit', (exitCode, signal) => resolve(exitCode ?? (signal ? 1 : 0))));
  await database.release();
  return code;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [command, ...args] = process.argv.slice(2);
  if (!command) {
    console.error('usage: with-database <command> [args...]');
    process.exit(2);
  }
  process.exit(await runWithDatabase(command, args));
}
