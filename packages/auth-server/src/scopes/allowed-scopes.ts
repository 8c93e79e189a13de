/**
 * What a client may be granted, from the scopes registered for it
 * (`auth add-client --allowed-scopes`, `auth set-scopes`).
 *
 * Rules enforced here:
 * - a client registered without allowed scopes is allowed exactly the hero
 *   scopes (HERO_SCOPES), written out: every token states its authority,
 *   and Aqueduct's "no scopes = full access" still holds for such clients;
 * - `openid` is never authority (it asks for an ID token), so a client
 *   registered with only `openid` counts as registered without scopes;
 * - otherwise the registered list, as is.
 *
 * Usage: `allowedScopes([])` → ['heroes:read', 'heroes:write']
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
