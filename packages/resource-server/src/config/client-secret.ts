/**
 * The resource server's own client secret when RESOURCE_SERVER_CLIENT_SECRET
 * is unset: generated once and kept in `<dataDir>/resource-server-secret`
 * (mode 0600) so every resource-server process on the machine shares it.
 * - written to a temporary file and hard-linked into place, so two processes
 *   starting together never read a half-written file; the first one wins.
 */
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export const secretFileName = 'resource-server-secret';

/**
 * Usage:
 *   const secret = await readOrCreateClientSecret(dataDir);
 */
export async function readOrCreateClientSecret(dir: string): Promise<string> {
  const file = path.join(dir, secretFileName);
  const existing = await readSecret(file);
  if (existing) return existing;
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
  await fs.writeFile(temp, crypto.randomBytes(32).toString('base64url') + '\n', { mode: 0o600 });
  try {
    await fs.link(temp, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.unlink(temp).catch(() => {});
  }
  const secret = await readSecret(file);
  if (!secret) throw new Error(`${file} is empty`);
  return secret;
}

async function readSecret(file: string): Promise<string | undefined> {
  try {
    return (await fs.readFile(file, 'utf8')).trim() || undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
