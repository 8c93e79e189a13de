/**
 * Local secrets kept in a file (generated keys, generated client secrets):
 * read it, or create it once. The one writer of such files.
 *
 * Rules enforced here:
 * - created with mode 0600 in a folder created with mode 0700;
 * - written to a temporary file and hard-linked into place, so two
 *   processes starting together never read a half-written file: the first
 *   one wins and the other reads its content;
 * - an existing file is never replaced (an empty one is an error: silently
 *   replacing it would invalidate what was made with the old secret).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * Usage:
 *   const secret = readOrCreateSecretFile(path.join(resolveDataDir(), 'x-secret'), () => crypto.randomBytes(32).toString('base64url'));
 */
export function readOrCreateSecretFile(file: string, create: () => string): string {
  const existing = readIfPresent(file);
  if (existing === undefined) writeOnce(file, create());
  const content = readIfPresent(file);
  if (!content?.trim()) throw new Error(`${file} is empty`);
  return content;
}

function writeOnce(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(temp, content, { mode: 0o600 });
  try {
    fs.linkSync(temp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** The content of a secret file, or undefined when there is none (never creates it). */
export function readSecretFile(file: string): string | undefined {
  return readIfPresent(file);
}

function readIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
