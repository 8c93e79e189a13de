/**
 * oidc-provider's clientBasedCORS (docs/oauth.md, "Browser origins"): a page
 * may call the token, revoke and introspect endpoints for a client only from
 * one of the client's allowed origins (its `allowed_origins` metadata, see
 * adapter/client-metadata.ts). The library then answers a request from any
 * other origin with 400 invalid_request and no Access-Control-Allow-Origin,
 * so the page never reads the answer. Requests without Origin (servers,
 * command lines) are not CORS requests and are not checked.
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
