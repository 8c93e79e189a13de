/**
 * The audience of every access token (RFC 8707, RFC 7662 `aud`), the hero API's identifier, set as the token is
 * stored, whatever the grant: a request naming another resource is refused before any token, one naming none gets it
 * too, and a token stored before audiences existed is read back with it. Documented API only: an `AccessToken`
 * adapter hook (library/store-hooks.ts).
 */
import type { StoreHook } from './store-hooks.ts';

/** The AccessToken hook: stored and read with the audience `resource`. */
export function accessTokenAudience(resource: string): StoreHook {
  return {
    beforeStore(payload) {
      payload.aud = resource;
    },
    afterFind(payload) {
      payload.aud = storedAudience(payload, resource) as string;
    },
  };
}

/** The audience of a stored access token payload: its own, or the hero API for one stored without. */
export function storedAudience(payload: Record<string, unknown>, resource: string): unknown {
  return payload['aud'] ?? resource;
}
