/**
 * Runs the real `auth` binary as a child process against a given database.
 * Usage: const result = await runAuth(['add-client', '--id', 'web'], { databaseUrl }); t.is(result.code, 0)
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { packageDir, repoRoot } from './paths.ts';

export const authBin = path.join(packageDir, 'bin/auth.js');
/** The bin as `npx auth` finds it (linked by `npm install`). */
export const linkedAuthBin = path.join(repoRoot, 'node_modules/.bin/auth');

export interface AuthResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * At most CONCURRENT_RUNS binaries at once per test file: ava runs a file's
 * tests concurrently, and thirty Node processes starting together on a
 * loaded two-core machine made single runs pass their time limit.
 */
const CONCURRENT_RUNS = 2;
let running = 0;
const waiting: Array<() => void> = [];

async function withSlot<T>(run: () => Promise<T>): Promise<T> {
  if (running >= CONCURRENT_RUNS) await new Promise<void>((resolve) => waiting.push(resolve));
  running += 1;
  try {
    return await run();
  } finally {
    running -= 1;
    waiting.shift()?.();
  }
}

export function runAuth(
  args: string[],
  options: { databaseUrl?: string; bin?: string; env?: Record<string, string> } = {},
): Promise<AuthResult> {
  return withSlot(() => runAuthNow(args, options));
}

function runAuthNow(
  args: string[],
  options: { databaseUrl?: string; bin?: string; env?: Record<string, string> },
): Promise<AuthResult> {
  const env: NodeJS.ProcessEnv = { ...process.env, ...options.env };
  delete env.AUTH_DEBUG;
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl;
  const bin = options.bin ?? authBin;
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [bin, ...args], { cwd: repoRoot, env, timeout: 115_000 }, (err, stdout, stderr) => {
      if (err && typeof err.code !== 'number') return reject(err);
      resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
    });
  });
}

/** The secret printed by add-client --generate-secret or rotate-secret. */
export function printedSecret(stdout: string): string | undefined {
  return /^Client secret \(shown only once; store it now\): (\S+)$/m.exec(stdout)?.[1];
}
