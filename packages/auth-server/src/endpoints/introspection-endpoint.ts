/**
 * POST /auth/introspect (RFC 7662): every step an introspection request
 * goes through, in order ("out": the step looks at the answer on its way
 * back).
 *
 * 1. CORS headers on our own error answers for a browser origin the
 *    client allows, then `Pragma: no-cache` (out; shared.clientAnswers)
 * 2. methods: POST; OPTIONS to the library (CORS preflight); else 405
 * 3. database outages, here or in the library → 503 (out)
 * 4. the form read through http-kit (413, 415, 400) and handed to the library
 * 5. client authentication normalized, WWW-Authenticate on 401s (out)
 * 6. a public client (authenticated with `none`) → 401 invalid_client (out)
 * 7. the fast path: a remembered caller asking about a live access token
 *    gets the library's answer from one query (unless turned off)
 * 8. oidc-provider: client authentication, then its introspection (which
 *    tokens a client may see: provider/create-provider.ts)
 */
import { ROUTES } from '../provider/routes.ts';
import { resourceIdentifier } from '@heroes/oauth-scopes';
import { createFastIntrospection } from '../middleware/fast-introspection.ts';
import { requireConfidentialIntrospection } from '../middleware/introspection-guard.ts';
import { readProviderForm } from '../middleware/read-provider-form.ts';
import type { Endpoint } from './endpoint.ts';
import { providerMethods, type ProviderEndpointDeps, type ProviderSteps } from './provider-steps.ts';

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
