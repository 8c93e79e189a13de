/**
 * POST /auth/introspect (RFC 7662): every step an introspection request
 * goes through, in order ("out": the step looks at the answer on its way
 * back).
 *
 * 1. CORS headers on our own error answers for a browser origin the client allows (out)
 * 2. `Pragma: no-cache` (out)
 * 3. methods: POST; OPTIONS to the library (CORS preflight); else 405
 * 4. database outages, here or in the library → 503 (out)
 * 5. the form read through http-kit (413, 415, 400) and handed to the library
 * 6. client authentication normalized, WWW-Authenticate on 401s (out)
 * 7. a public client (authenticated with `none`) → 401 invalid_client (out)
 * 8. the fast path: a remembered caller asking about a live access token
 *    gets the library's answer from one query (unless turned off)
 * 9. oidc-provider: client authentication, then its introspection (which
 *    tokens a client may see: provider/create-provider.ts)
 */
import { ROUTES } from '../provider/routes.ts';
import { createCorsOnErrors } from '../middleware/cors-on-errors.ts';
import { createFastIntrospection } from '../middleware/fast-introspection.ts';
import { requireConfidentialIntrospection } from '../middleware/introspection-guard.ts';
import { createClientAuthNormalizer } from '../middleware/normalize-client-auth.ts';
import { readProviderForm } from '../middleware/read-provider-form.ts';
import { addPragmaNoCache } from '../middleware/token-response.ts';
import type { Endpoint } from './endpoint.ts';
import { providerMethods, type ProviderEndpointDeps, type ProviderSteps } from './provider-steps.ts';

export function introspectionEndpoint(deps: ProviderEndpointDeps, shared: ProviderSteps): Endpoint {
  const fastPath = deps.fastIntrospection
    ? [createFastIntrospection({ db: deps.db, issuer: deps.provider.issuer, resourceServerClientId: deps.resourceServerClientId, secrets: deps.secrets })]
    : [];
  return {
    path: ROUTES.introspection,
    steps: [
      createCorsOnErrors(deps.db),
      addPragmaNoCache,
      providerMethods(shared, {
        POST: [
          shared.mapDatabaseOutage,
          readProviderForm,
          createClientAuthNormalizer(deps.publicBaseUrl),
          requireConfidentialIntrospection,
          ...fastPath,
          shared.toProvider,
        ],
      }, ['POST']),
    ],
  };
}
