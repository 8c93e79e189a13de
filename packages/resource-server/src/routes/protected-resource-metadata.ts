/**
 * GET /.well-known/oauth-protected-resource: the hero API's protected
 * resource metadata (RFC 9728 section 3), which every 401 names
 * (`resource_metadata`, auth/challenges.ts). From it a client (an MCP
 * client, for one) learns the authorization server to ask, then reads that
 * server's own metadata (RFC 8414) and gets a token for this resource.
 *
 * Rules enforced here:
 * - `resource` is the identifier tokens must name in `aud`, and the
 *   document is at the well-known path of that identifier (section 3.1:
 *   after the host, before its path), both from PUBLIC_BASE_URL;
 * - `authorization_servers` is the issuer (PUBLIC_BASE_URL), whose metadata
 *   is at {issuer}/.well-known/oauth-authorization-server;
 * - `scopes_supported`: the scopes the hero routes check; bearer tokens in
 *   the Authorization header only (RFC 6750 section 2.1);
 *   `resource_documentation`: the API page (/docs);
 * - GET and HEAD; other methods → 405; public, cacheable for 5 minutes.
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
export function protectedResourceMetadata({ resource, issuer, scopes }: ProtectedResourceMetadataDeps): Record<string, unknown> {
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
