/**
 * GET /.well-known/oauth-protected-resource (RFC 9728 section 3), named by every 401: `resource` (what `aud` must
 * name, the document at its well-known path), `authorization_servers` (the issuer), the hero scopes, header-only
 * bearer tokens, the /docs page. GET and HEAD, else 405; cacheable for 5 minutes.
 */
import type Router from '@koa/router';
import { dispatchByMethod } from '@heroes/http-kit';
import type { ProtectedResource } from '../auth/protected-resource.ts';

export interface ProtectedResourceMetadataDeps {
  resource: ProtectedResource;
  /** The authorization server's issuer identifier (PUBLIC_BASE_URL). */
  issuer: string;
  /** The scopes the protected routes check. */
  scopes: readonly string[];
}

/** The document, as RFC 9728 section 2 names its members. */
function protectedResourceMetadata({ resource, issuer, scopes }: ProtectedResourceMetadataDeps): Record<string, unknown> {
  return {
    resource: resource.identifier,
    authorization_servers: [issuer],
    scopes_supported: [...new Set(scopes)],
    bearer_methods_supported: ['header'],
    resource_name: 'Heroes API',
    resource_documentation: new URL('docs', withSlash(resource.identifier)).href,
  };
}

export function mountProtectedResourceMetadata(router: Router, deps: ProtectedResourceMetadataDeps): void {
  const document = protectedResourceMetadata(deps);
  router.all(new URL(deps.resource.metadataUrl).pathname, dispatchByMethod([], {
    GET: [async function sendProtectedResourceMetadata(ctx) {
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = document;
    }],
  }));
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
