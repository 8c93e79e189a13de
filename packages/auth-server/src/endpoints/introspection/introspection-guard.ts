/**
 * Introspection is for authenticated confidential clients only (RFC 7662 section 2.1: no token scanning without
 * credentials): a client that authenticated with `none` → 401 invalid_client, decided on the client oidc-provider
 * authenticated, even where the library would answer. Which tokens a client may see is the provider's allowedPolicy.
 */
import type { Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';

const PUBLIC_INTROSPECTION = 'introspection requires client authentication with a client secret (RFC 7662 section 2.1); public clients may not introspect';

export const requireConfidentialIntrospection: Middleware = async function requireConfidentialIntrospection(ctx, next) {
  await next();
  const { oidc } = ctx as unknown as Partial<KoaContextWithOIDC>;
  if (oidc?.client?.clientAuthMethod !== 'none') return;
  ctx.status = 401;
  ctx.body = { error: 'invalid_client', error_description: PUBLIC_INTROSPECTION };
};
