/**
 * Runs the real `auth` binary as a child process against a given database.
 *
 * Usage:
 *   const result = await runAuth(['add-client', '--id', 'web'], { databaseUrl });
 *   t.is(result.code, 0);
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

export function runAuth(
  args: string[],
  options: { databaseUrl?: string; bin?: string; env?: Record<string, string> } = {},
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
