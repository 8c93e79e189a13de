/**
 * What a client may be granted from its registered scopes: none registered (or only `openid`, which is no authority)
 * → exactly the hero scopes, written out, so every token states its authority; otherwise the registered list.
 */
import { authorityScopes, HERO_SCOPES } from '@heroes/oauth-scopes';

export function allowedScopes(registered: readonly string[]): string[] {
  return authorityScopes(registered).length > 0 ? [...registered] : [...registered, ...HERO_SCOPES];
}

/** Client metadata property carrying allowedScopes() (adapter/client-metadata.ts). */
export const ALLOWED_SCOPES_PROPERTY = 'allowed_scopes';

/**
 * What an oidc-provider client may be granted, as its metadata carries it.
 *
 * Usage: `clientAllowedScopes(ctx.oidc.client)` → ['heroes:read']
 */
export function clientAllowedScopes(client: object | undefined): string[] {
  const value = client ? (client as Record<string, unknown>)[ALLOWED_SCOPES_PROPERTY] : undefined;
  return Array.isArray(value) ? value.filter((scope): scope is string => typeof scope === 'string') : [];
}
