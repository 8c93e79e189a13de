/**
 * Server metadata (RFC 8414 /.well-known/oauth-authorization-server and
 * /.well-known/openid-configuration) that describes this service truthfully.
 *
 * Rules enforced here:
 * - every endpoint URL is under PUBLIC_BASE_URL (the issuer), whichever
 *   address the request reached, so clients behind or in front of the
 *   forwarding proxy get the same document;
 * - authorization_endpoint is {base}/auth/code (our login form);
 * - scopes_supported is the catalogue of registered scopes plus `openid`
 *   (scopes/scope-catalogue.ts), read on each request;
 * - OpenID Connect: `openid` is in scopes_supported and /auth/code issues
 *   ID tokens for it (RS256, our keys at jwks_uri); claims_supported lists
 *   the claims those carry;
 * - only the `query` response mode is offered (our /auth/code redirects
 *   with a query string, and carries `iss` as RFC 9207 advertises);
 * - revocation takes the token endpoint's auth methods (public clients may
 *   revoke, RFC 7009 2.1); introspection the same without `none`
 *   (RFC 7662 2.1).
 */
import type { Middleware } from 'koa';
import { ROUTES } from '../provider/routes.ts';
import type { ScopeCatalogue } from '../scopes/scope-catalogue.ts';

const ID_TOKEN_CLAIMS = ['sub', 'iss'];

export function createMetadataRewriter(publicBaseUrl: string, catalogue: ScopeCatalogue): Middleware {
  return async function rewriteMetadata(ctx, next) {
    await next();
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.status !== 200 || !body || typeof body !== 'object' || Buffer.isBuffer(body)) return;
    for (const [key, value] of Object.entries(body)) {
      if ((key.endsWith('_endpoint') || key === 'jwks_uri') && typeof value === 'string') {
        body[key] = publicBaseUrl + new URL(value).pathname;
      }
    }
    body['authorization_endpoint'] = publicBaseUrl + ROUTES.authorization;
    body['response_modes_supported'] = ['query'];
    body['scopes_supported'] = await catalogue();
    // The claims our ID tokens carry (no sessions here, so no sid; auth_time only on request, which /auth/code cannot take).
    if ('claims_supported' in body) body['claims_supported'] = ID_TOKEN_CLAIMS;
    const methods = body['token_endpoint_auth_methods_supported'];
    body['revocation_endpoint_auth_methods_supported'] = methods;
    // RFC 7662 2.1: introspection needs an authenticated (confidential) client.
    body['introspection_endpoint_auth_methods_supported'] = Array.isArray(methods) ? methods.filter((method) => method !== 'none') : methods;
  };
}
