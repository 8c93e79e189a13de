/**
 * POST /auth/token (RFC 6749 section 3.2), every step in order. The first five act on the answer on its way out (CORS
 * and `Pragma` on our errors, `token_type: bearer`, the stored `scope`, `unauthorized_client`/`invalid_dpop_proof`);
 * then outages → 503, the form, scope and `resource` (400 before any read), client authentication, the code's
 * redirect_uri, a sub-scope refresh, revoking replaced tokens (out), and oidc-provider: client check, grant, storage.
 */
import { ROUTES } from '../provider/routes.ts';
import { createRefreshSubScope } from '../provider/refresh-sub-scope.ts';
import { resourceIdentifier } from '@heroes/oauth-scopes';
import { checkScopeParameter } from '../middleware/check-scope-parameter.ts';
import { createResourceParameterCheck } from '../middleware/check-resource-parameter.ts';
import { readProviderForm } from '../middleware/read-provider-form.ts';
import { createCodeRedirectUriCheck } from '../middleware/require-code-redirect-uri.ts';
import { createRevokeOnRefresh } from '../middleware/revoke-on-refresh.ts';
import { lowercaseBearer } from '../middleware/token-response.ts';
import { answerStoredScope } from '../provider/access-token-scope.ts';
import { mapUnauthorizedClient } from '../middleware/unauthorized-client.ts';
import { answerMissingDpopProof } from '../provider/dpop-binding.ts';
import type { Endpoint } from './endpoint.ts';
import { providerMethods, type ProviderEndpointDeps, type ProviderSteps } from './provider-steps.ts';

export function tokenEndpoint(deps: ProviderEndpointDeps, shared: ProviderSteps): Endpoint {
  return {
    path: ROUTES.token,
    steps: [
      ...shared.clientAnswers,
      lowercaseBearer,
      answerStoredScope,
      mapUnauthorizedClient,
      answerMissingDpopProof,
      providerMethods(shared, {
        POST: [
          shared.mapDatabaseOutage,
          readProviderForm,
          checkScopeParameter,
          createResourceParameterCheck(resourceIdentifier(deps.publicBaseUrl)),
          shared.normalizeClientAuth,
          createCodeRedirectUriCheck(deps),
          createRefreshSubScope(deps.provider),
          createRevokeOnRefresh(deps.db, deps.notify),
          shared.toProvider,
        ],
      }, ['POST']),
    ],
  };
}
