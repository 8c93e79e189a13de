/**
 * The resource server's own client secret when RESOURCE_SERVER_CLIENT_SECRET
 * is unset: generated once and kept in `<dataDir>/resource-server-secret`
 * (by @heroes/platform's secret-file writer: mode 0600, atomic, first one wins),
 * so every resource-server process on the machine shares it.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { readOrCreateSecretFile } from '@heroes/platform/local-state';

const secretFileName = 'resource-server-secret';

/**
 * Usage:
 *   const secret = readOrCreateClientSecret(resolveDataDir());
 */
export function readOrCreateClientSecret(dir: string): string {
  const file = path.join(dir, secretFileName);
  return readOrCreateSecretFile(file, () => `${crypto.randomBytes(32).toString('base64url')}\n`).trim();
}
