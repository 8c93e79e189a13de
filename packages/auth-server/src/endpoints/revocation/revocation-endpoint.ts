/**
 * POST /auth/revoke (RFC 7009), steps in order below ("out": on the answer's way back): CORS on our errors and
 * `Pragma: no-cache` (out), methods, outages → 503 (out), the form read by http-kit, client authentication normalized
 * (public clients may revoke, section 2.1), then oidc-provider: a client's own tokens only, the adapter telling the
 * resource servers.
 */
import { ROUTES } from '../../common/routes.ts';
import { readProviderForm } from '../../library/read-provider-form.ts';
import type { Endpoint } from '../../common/endpoint.ts';
import { providerMethods, type ProviderSteps } from '../../common/provider-steps.ts';

export function revocationEndpoint(shared: ProviderSteps): Endpoint {
  return {
    path: ROUTES.revocation,
    steps: [
      ...shared.clientAnswers,
      providerMethods(shared, { POST: [shared.mapDatabaseOutage, readProviderForm, shared.normalizeClientAuth, shared.toProvider] }, ['POST']),
    ],
  };
}
