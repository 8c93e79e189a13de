/**
 * The `auth` command line (packages/auth-server/bin/auth.js) run as a real
 * process, as an operator runs `npx auth ...` from the repository root.
 *
 * Usage:
 *   await authCli(env, ['add-client', '--id', 'web', '--secret', 's3cret']);
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '@heroes/test-kit';

const run = promisify(execFile);

export async function authCli(env: NodeJS.ProcessEnv, args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(process.execPath, [path.join(repoRoot, 'packages/auth-server/bin/auth.js'), ...args], { env, cwd: repoRoot });
}
