/**
 * POST /auth/revoke (RFC 7009): every step a revocation request goes
 * through, in order ("out": the step looks at the answer on its way back).
 *
 * 1. CORS headers on our own error answers for a browser origin the client allows (out)
 * 2. `Pragma: no-cache` (out)
 * 3. methods: POST; OPTIONS to the library (CORS preflight); else 405
 * 4. database outages, here or in the library → 503 (out)
 * 5. the form read through http-kit (413, 415, 400) and handed to the library
 * 6. client authentication normalized (public clients may revoke, RFC 7009 2.1)
 * 7. oidc-provider: client authentication, then its revocation (a
 *    client's own tokens only, provider/create-provider.ts); the adapter
 *    tells the resource servers (notify/)
 */
import { ROUTES } from '../provider/routes.ts';
import { createCorsOnErrors } from '../middleware/cors-on-errors.ts';
import { createClientAuthNormalizer } from '../middleware/normalize-client-auth.ts';
import { readProviderForm } from '../middleware/read-provider-form.ts';
import { addPragmaNoCache } from '../middleware/token-response.ts';
import type { Endpoint } from './endpoint.ts';
import { providerMethods, type ProviderEndpointDeps, type ProviderSteps } from './provider-steps.ts';

export function revocationEndpoint(deps: ProviderEndpointDeps, shared: ProviderSteps): Endpoint {
  return {
    path: ROUTES.revocation,
    steps: [
      createCorsOnErrors(deps.db),
      addPragmaNoCache,
      providerMethods(shared, {
        POST: [
          shared.mapDatabaseOutage,
          readProviderForm,
          createClientAuthNormalizer(deps.publicBaseUrl),
          shared.toProvider,
        ],
      }, ['POST']),
    ],
  };
}
