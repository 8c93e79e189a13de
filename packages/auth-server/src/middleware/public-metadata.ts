/**
 * Server metadata (RFC 8414 /.well-known/oauth-authorization-server and
 * /.well-known/openid-configuration) that describes this service truthfully.
 *
 * Rules enforced here:
 * - every endpoint URL is under PUBLIC_BASE_URL (the issuer), whichever
 *   address the request reached, so clients behind or in front of the
 *   forwarding proxy get the same document;
 * - authorization_endpoint is {base}/auth/code (our login form);
 * - only the `query` response mode is offered (our /auth/code redirects
 *   with a query string, and carries `iss` as RFC 9207 advertises).
 */
import type { Middleware } from 'koa';
import { ROUTES } from '../provider/routes.ts';

const DISCOVERY = new Set<string>([ROUTES.openidDiscovery, ROUTES.oauthDiscovery]);

export function createMetadataRewriter(publicBaseUrl: string): Middleware {
  return async function rewriteMetadata(ctx, next) {
    if (!DISCOVERY.has(ctx.path)) return next();
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
    const methods = body['token_endpoint_auth_methods_supported'];
    body['revocation_endpoint_auth_methods_supported'] = methods;
    body['introspection_endpoint_auth_methods_supported'] = methods;
  };
}
