/**
 * Keeps the provider's signing keys in step with AUTH_KEYS_FILE while it runs (`auth keys rotate`): the file is
 * checked every `intervalMs` (size, time, inode: a rename or a Secret volume's symlink swap count) and valid new keys
 * replace the provider's; retired keys leave the JWKS when nothing they signed lives; an unreadable file keeps the keys
 * in use; a new signing key is recorded once (`keys.rotated`).
 */
import fs from 'node:fs';
import type Provider from 'oidc-provider';
import type { Logger } from 'pino';
import { activeKid, parseKeys, publishedKeys, type ProviderKeys } from '../config/keys.ts';
import { replaceSigningKeys } from './library-seams.ts';

export interface FollowSigningKeysOptions {
  provider: Provider;
  file: string;
  /** The keys the provider was built with. */
  keys: ProviderKeys;
  logger: Logger;
  /** A new signing key is in use (its kid). */
  onRotated(kid: string): Promise<void>;
  intervalMs?: number;
}

export function followSigningKeys({ provider, file, keys: initial, logger, onRotated, intervalMs = 1000 }: FollowSigningKeysOptions): () => void {
  let keys = initial;
  let stamp = fileStamp(file);
  let published = kids(publishedKeys(keys).keys);
  let checking = false;

  async function check(): Promise<void> {
    const now = fileStamp(file);
    if (now !== stamp) {
      stamp = now;
      const previousKid = activeKid(keys);
      try {
        keys = parseKeys(fs.readFileSync(file, 'utf8'), file);
      } catch (err) {
        logger.error({ err, file }, 'keys file unreadable: signing keys unchanged');
        return;
      }
      const kid = activeKid(keys);
      if (kid && kid !== previousKid) {
        await apply();
        logger.info({ kid, file }, 'new signing key in use');
        await onRotated(kid).catch((err: unknown) => logger.error({ err }, 'could not record keys.rotated'));
        return;
      }
    }
    const next = kids(publishedKeys(keys).keys);
    if (next !== published) await apply();
  }

  async function apply(): Promise<void> {
    const jwks = publishedKeys(keys);
    await replaceSigningKeys(provider, jwks);
    published = kids(jwks.keys);
  }

  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    check()
      .catch((err: unknown) => logger.error({ err, file }, 'could not apply the keys file'))
      .finally(() => { checking = false; });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

function fileStamp(file: string): string {
  try {
    const stat = fs.statSync(file);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

function kids(keys: Array<{ kid?: string | undefined }>): string {
  return keys.map((key) => key.kid ?? '').join(' ');
}
