/**
 * oidc-provider's clientBasedCORS (docs/oauth.md, "Browser origins"): a page may call token, revoke and introspect
 * for a client only from one of its allowed origins; from another the library answers 400 without
 * Access-Control-Allow-Origin, so the page never reads it. Requests without Origin are not checked.
 */
import type { Configuration } from 'oidc-provider';
import { ALLOWED_ORIGINS } from '../adapter/client-metadata.ts';

export const clientBasedCORS: NonNullable<Configuration['clientBasedCORS']> = (_ctx, origin, client) => {
  const allowed = (client as unknown as Record<string, unknown>)[ALLOWED_ORIGINS];
  return Array.isArray(allowed) && allowed.includes(origin);
};

/** Declares the `allowed_origins` metadata so the library keeps it on the client. */
export const allowedOriginsMetadata: NonNullable<Configuration['extraClientMetadata']> = {
  properties: [ALLOWED_ORIGINS],
  validator(_ctx, key, value) {
    if (key !== ALLOWED_ORIGINS) return;
    if (value !== undefined && (!Array.isArray(value) || value.some((origin) => typeof origin !== 'string'))) {
      throw new TypeError(`${ALLOWED_ORIGINS} must be a list of origins`);
    }
  },
};
