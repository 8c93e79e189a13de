/**
 * POST /auth/token (RFC 6749 section 3.2): every step a token request goes
 * through, in order. The first five look at the answer on its way out
 * (their "out" half runs after the library, bottom to top).
 *
 *  1. CORS headers on our own error answers for a browser origin the
 *     client allows (out; the library sets CORS on its own answers)
 *  2. `Pragma: no-cache` (out; 1 and 2 are shared.clientAnswers)
 *  3. `token_type: bearer` (out)
 *  4. `scope`: the values the access token was stored with (out;
 *     provider/access-token-scope.ts)
 *  5. a grant type the authenticated client is not registered for →
 *     `unauthorized_client` (out)
 *  6. methods: POST; OPTIONS to the library (CORS preflight); else 405
 *  7. database outages, here or in the library → 503 (out)
 *  8. the form read through http-kit (413, 415, 400) and handed to the library
 *  9. `scope` syntax and limits → 400 invalid_scope; `resource` (RFC 8707)
 *     other than the hero API → 400 invalid_target
 * 10. client authentication normalized: `Basic base64(id:)` is a public
 *     client, a malformed header → 401, no client authentication at all
 *     → 401, WWW-Authenticate on 401s (out)
 * 11. a code exchange without `redirect_uri` whose authorization request
 *     had one is made to fail (RFC 6749 section 4.1.3)
 * 12. a refresh narrowing to a sub-scope is handed to the library as its parent scope
 * 13. after a 200 refresh, the access tokens it replaces are revoked (out)
 * 14. oidc-provider: client authentication (clients/secret-cache.ts), the grant
 *     (password: provider/password-grant.ts; code and refresh: the
 *     library's), tokens stored through adapter/, an access token's scope
 *     fixed on its way there by provider/access-token-scope.ts
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
