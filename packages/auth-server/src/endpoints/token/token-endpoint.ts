/**
 * POST /auth/token (RFC 6749 section 3.2): every step a token request takes, ours and then oidc-provider's, in order.
 * What one step tells a later one travels on `ctx.state` (request-state.ts).
 */
import { ROUTES } from '../../common/routes.ts';
import { createRefreshSubScope } from './refresh-sub-scope.ts';
import { resourceIdentifier } from '@heroes/oauth-scopes';
import { checkScopeParameter } from './check-scope-parameter.ts';
import { createResourceParameterCheck } from './check-resource-parameter.ts';
import { readProviderForm } from '../../library/read-provider-form.ts';
import { createCodeRedirectUriCheck } from './require-code-redirect-uri.ts';
import { createRevokeOnRefresh } from './revoke-on-refresh.ts';
import { lowercaseBearer } from './lowercase-bearer.ts';
import { answerStoredScope } from '../../library/access-token-scope.ts';
import { mapUnauthorizedClient } from './unauthorized-client.ts';
import { answerMissingDpopProof } from '../../library/dpop-binding.ts';
import type { Endpoint } from '../../common/endpoint.ts';
import { providerMethods, type ProviderEndpointDeps, type ProviderSteps } from '../../common/provider-steps.ts';

export function tokenEndpoint(deps: ProviderEndpointDeps, shared: ProviderSteps): Endpoint {
  // Ours (listed below), outermost first; the first steps act on the answer on its way out:
  //  1. CORS on our error answers, `Pragma: no-cache`             (provider-steps.ts clientAnswers)
  //  2. `token_type: bearer` in lower case                         (lowercase-bearer.ts)
  //  3. `scope` = state.storedScope, what the token was stored with (library/access-token-scope.ts)
  //  4. 400 invalid_request → unauthorized_client for an authenticated client (unauthorized-client.ts)
  //  5. 400 invalid_grant → invalid_dpop_proof for a --require-dpop client without a proof (library/dpop-binding.ts)
  //  6. POST only (405 otherwise; OPTIONS to the library); a database outage anywhere below → 503
  //  7. the form by http-kit's body rules → state.form, handed to the library (library/read-provider-form.ts)
  //  8. `scope` and `resource` checked (400 before any read)
  //  9. client authentication normalized: `Basic base64(id:)` is a public client, 401 without any
  // 10. authorization_code: the code's redirect_uri required when the request sent one
  // 11. refresh_token narrowing to a sub-scope: the parent scope handed on, state.narrowedScope kept
  // 12. refresh_token: the replaced access tokens revoked once the answer is 200 (revoke-on-refresh.ts)
  // Then oidc-provider (its lib/actions/token.js), reached through step 13, `toProvider`:
  // 13. no-cache headers; the body read from `ctx.request.body` (library-seams.ts, seam 1); params assembled
  // 14. client authentication: the client found (`ctx.oidc.client`), its secret compared by ours, throttled per
  //     client and address, bcrypt in the hash queue, a match → state.secretMatchedClient (library-seams.ts, seam 2)
  // 15. grant_type: one only, supported, allowed for the client (else 400 invalid_request, see 4); scope characters
  // 16. the grant: authorization_code and refresh_token (the library's), password (library/password-grant.ts),
  //     client_credentials (library/client-credentials-grant.ts); each checks a DPoP proof (RFC 9449), its jti
  //     claimed once by any replica (library-seams.ts, seams 5 and 6)
  // 17. tokens stored through the adapter (library/store-hooks.ts): an access token with extraTokenClaims
  //     (`username`, `grant_id`), its audience and its scope fixed (→ state.storedScope); a refresh token bound
  //     to the access token's DPoP key; then the JSON answer, on its way out through 12 to 1.
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
