/**
 * POST /auth/revoke (RFC 7009): every step a revocation request goes
 * through, in order ("out": the step looks at the answer on its way back).
 *
 * 1. CORS headers on our own error answers for a browser origin the
 *    client allows, then `Pragma: no-cache` (out; shared.clientAnswers)
 * 2. methods: POST; OPTIONS to the library (CORS preflight); else 405
 * 3. database outages, here or in the library → 503 (out)
 * 4. the form read through http-kit (413, 415, 400) and handed to the library
 * 5. client authentication normalized (public clients may revoke, RFC 7009 2.1)
 * 6. oidc-provider: client authentication, then its revocation (a
 *    client's own tokens only, provider/create-provider.ts); the adapter
 *    tells the resource servers (notify/)
 */
import { ROUTES } from '../provider/routes.ts';
import { readProviderForm } from '../middleware/read-provider-form.ts';
import type { Endpoint } from './endpoint.ts';
import { providerMethods, type ProviderSteps } from './provider-steps.ts';

export function revocationEndpoint(shared: ProviderSteps): Endpoint {
  return {
    path: ROUTES.revocation,
    steps: [
      ...shared.clientAnswers,
      providerMethods(shared, { POST: [shared.mapDatabaseOutage, readProviderForm, shared.normalizeClientAuth, shared.toProvider] }, ['POST']),
    ],
  };
}
