/**
 * Server metadata (RFC 8414, OpenID Connect Discovery) that describes this service truthfully: every URL under
 * PUBLIC_BASE_URL whatever address was reached; authorization at /auth/code; scopes_supported the catalogue plus
 * `openid`, read per request; the `query` response mode only (with `iss`, RFC 9207); revocation takes the token
 * endpoint's auth methods, introspection the same without `none`.
 */
import type { Middleware } from 'koa';
import { ROUTES } from '../../common/routes.ts';
import type { ScopeCatalogue } from '../../scopes/scope-catalogue.ts';

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
