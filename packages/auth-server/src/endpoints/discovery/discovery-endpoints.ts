/**
 * The documents: server metadata (RFC 8414 and OpenID Connect Discovery, one document at two paths, the library's
 * rewritten to describe this service: public URLs, /auth/code, the scope catalogue read now) and the signing keys
 * (RFC 7517) at /auth/jwks. GET and HEAD (OPTIONS to the library, else 405); database outages → 503.
 */
import { ROUTES } from '../../common/routes.ts';
import { createMetadataRewriter } from './metadata-rewriter.ts';
import { createScopeCatalogue } from '../../scopes/scope-catalogue.ts';
import type { Endpoint } from '../../common/endpoint.ts';
import { providerMethods, type ProviderEndpointDeps, type ProviderSteps } from '../../common/provider-steps.ts';

const DOCUMENT_METHODS = ['GET', 'HEAD'];

export function discoveryEndpoints(deps: ProviderEndpointDeps, shared: ProviderSteps): Endpoint[] {
  const rewriteMetadata = createMetadataRewriter(deps.publicBaseUrl, createScopeCatalogue(deps.db, deps.resourceServerClientId));
  const steps = [
    rewriteMetadata,
    providerMethods(shared, { GET: [shared.mapDatabaseOutage, shared.toProvider] }, DOCUMENT_METHODS),
  ];
  return [ROUTES.oauthDiscovery, ROUTES.openidDiscovery].map((path) => ({ path, steps }));
}

export function jwksEndpoint(shared: ProviderSteps): Endpoint {
  return {
    path: ROUTES.jwks,
    steps: [providerMethods(shared, { GET: [shared.mapDatabaseOutage, shared.toProvider] }, DOCUMENT_METHODS)],
  };
}
