/**
 * POST /auth/introspect (RFC 7662), steps in order below ("out": acts on the answer on its way back): CORS on our
 * errors and `Pragma: no-cache` (out), methods, outages → 503 (out), the form read by http-kit, client authentication
 * normalized (out), a public client → 401 (out), the fast path for a remembered caller and a live access token, then
 * oidc-provider (which tokens a client may see: library/create-provider.ts).
 */
import { ROUTES } from '../../shared/routes.ts';
import { resourceIdentifier } from '@heroes/oauth-scopes';
import { createFastIntrospection } from './fast-introspection.ts';
import { requireConfidentialIntrospection } from './introspection-guard.ts';
import { readProviderForm } from '../../shared/read-provider-form.ts';
import type { Endpoint } from '../../shared/endpoint.ts';
import { providerMethods, type ProviderEndpointDeps, type ProviderSteps } from '../../shared/provider-steps.ts';

export function introspectionEndpoint(deps: ProviderEndpointDeps, shared: ProviderSteps): Endpoint {
  const fastPath = deps.fastIntrospection
    ? [createFastIntrospection({ db: deps.db, issuer: deps.provider.issuer, resourceServerClientId: deps.resourceServerClientId, secrets: deps.secrets, resource: resourceIdentifier(deps.publicBaseUrl) })]
    : [];
  return {
    path: ROUTES.introspection,
    steps: [
      ...shared.clientAnswers,
      providerMethods(shared, {
        POST: [
          shared.mapDatabaseOutage,
          readProviderForm,
          shared.normalizeClientAuth,
          requireConfidentialIntrospection,
          ...fastPath,
          shared.toProvider,
        ],
      }, ['POST']),
    ],
  };
}
