/**
 * Local secrets kept in a file (generated keys and client secrets), read or created once, the one writer of such
 * files: mode 0600 in a 0700 folder, written to a temporary file and hard-linked into place (of two processes the
 * first wins, the other reads it), never replaced (an empty one is an error).
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
