/**
 * Introspection is for authenticated confidential clients only (RFC 7662
 * section 2.1: the endpoint MUST require authorization, so that token
 * scanning is not possible without credentials).
 *
 * Rules enforced here:
 * - a client that authenticated with `none` (a public client: no secret)
 *   → 401 invalid_client, whatever the token and even when the library
 *   would have answered (it lets a public client see its own tokens); the
 *   answer is decided on the client record oidc-provider authenticated,
 *   not on the shape of the request;
 * - which tokens a confidential client may see is the provider's
 *   introspection allowedPolicy (create-provider.ts).
 *
 * Placed after the client-auth normalizer, which adds WWW-Authenticate to
 * the 401 when the request came with an Authorization header.
 */
import type { Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';

export const PUBLIC_INTROSPECTION = 'introspection requires client authentication with a client secret (RFC 7662 section 2.1); public clients may not introspect';

export const requireConfidentialIntrospection: Middleware = async function requireConfidentialIntrospection(ctx, next) {
  await next();
  const { oidc } = ctx as unknown as Partial<KoaContextWithOIDC>;
  if (oidc?.client?.clientAuthMethod !== 'none') return;
  ctx.status = 401;
  ctx.body = { error: 'invalid_client', error_description: PUBLIC_INTROSPECTION };
};
