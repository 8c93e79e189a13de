/**
 * Declares scope values to a running provider.
 *
 * oidc-provider silently drops scope values that are not in its `scopes`
 * configuration, and that configuration is static (panva/node-oidc-provider
 * issues #180, #454: no supported way to change it after construction). The
 * set of scopes here is dynamic: `auth add-client --allowed-scopes` may
 * introduce new ones while the server runs. So:
 *
 * 1. at construction, `scopes` = the base scopes + every allowed scope found
 *    in oauth_clients (startup snapshot);
 * 2. every time a client row is read (each token, revoke, introspect and
 *    /auth/code request reads its client), its allowed scopes are added to
 *    the provider's live scope Set, before the client metadata is validated.
 *
 * Step 2 reaches the Set through the library's private-state reader
 * (lib/helpers/weak_cache.js); `createScopeDeclarer` checks at start that it
 * is still there and throws otherwise, so a library update cannot silently
 * turn dynamic scopes off. Limit: scopes are never removed while running
 * (the Set only grows until restart), and discovery lists only scopes
 * declared so far. Scope decisions are ours anyway (resolveScopes) and read
 * the client's row on every request.
 */
import type Provider from 'oidc-provider';
import instance from 'oidc-provider/lib/helpers/weak_cache.js';

export type ScopeDeclarer = (scopes: readonly string[]) => void;

export function createScopeDeclarer(provider: Provider): ScopeDeclarer {
  const live = instance(provider)?.configuration?.scopes;
  if (!(live instanceof Set)) {
    throw new Error('oidc-provider internals changed: cannot reach the configured scopes Set (scopes/declare-scopes.ts)');
  }
  const scopes = live as Set<string>;
  return function declareScopes(values) {
    for (const value of values) if (!scopes.has(value)) scopes.add(value);
  };
}
