/**
 * Step 2 of /auth/code: the authorization request itself, once the client
 * and redirect URI are trusted (errors are redirected back).
 *
 * Rules enforced here:
 * - response_type is required → invalid_request (RFC 6749 4.1.2.1: a
 *   missing parameter); present, it must be `code` → unsupported_response_type;
 * - state is required (Aqueduct; CSRF protection) → invalid_request;
 * - PKCE (RFC 7636): a public client must send code_challenge, and any
 *   code_challenge must be 43–128 unreserved characters with method S256
 *   (`plain` is not supported) → invalid_request;
 * - scope against what the client may be granted (scopes/allowed-scopes.ts,
 *   scopes/resolve-scopes.ts) → invalid_scope: no scope → every allowed
 *   scope except `openid`; a scope → exactly the requested values.
 *   `openid` (OpenID Connect Core 3.1.2.1) may be added by any client to
 *   ask for an ID token and is never authority; `nonce` is kept for the ID
 *   token. `openid` is never implied: a request without it gets no ID token;
 * - resource (RFC 8707 section 2), when sent, must name the hero API
 *   (@heroes/oauth-scopes resource-indicator.ts) → invalid_target; its
 *   tokens carry that audience whether or not it was sent
 *   (provider/access-token-audience.ts).
 */
import { formatScopes, isSameResource, OPENID } from '@heroes/oauth-scopes';
import { allowedScopes } from '../scopes/allowed-scopes.ts';
import { resolveScopes } from '../scopes/resolve-scopes.ts';
import type { CodeClient } from './check-client.ts';
import type { CodeRequest } from './code-request.ts';
import { RedirectError } from './code-flow-errors.ts';

const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface AuthorizationRequest {
  /** The granted scope, `openid` included when asked for. */
  scope: string;
  /** True when the request asked for an ID token (`openid` in its scope). */
  openid: boolean;
  nonce: string | undefined;
  codeChallenge: string | undefined;
  state: string;
  /** False when the request omitted redirect_uri (the registered one is used); see provider/code-redirect-uri.ts. */
  redirectUriSent: boolean;
}

/** `resource`: the hero API's identifier (resourceIdentifier of PUBLIC_BASE_URL). */
export function checkAuthorizationRequest(client: CodeClient, request: CodeRequest, resource: string): AuthorizationRequest {
  if (!request.responseType) {
    throw new RedirectError('invalid_request', 'response_type is required'); // RFC 6749 4.1.2.1: missing parameter
  }
  if (request.responseType !== 'code') {
    throw new RedirectError('unsupported_response_type', 'response_type must be code');
  }
  if (!request.state) throw new RedirectError('invalid_request', 'state is required');

  const isPublic = !client.hashedSecret;
  if (isPublic && !request.codeChallenge) {
    throw new RedirectError('invalid_request', 'PKCE is required for public clients: send code_challenge with code_challenge_method=S256');
  }
  if (request.codeChallengeMethod !== undefined && !request.codeChallenge) {
    throw new RedirectError('invalid_request', 'code_challenge_method without code_challenge');
  }
  if (request.codeChallenge !== undefined) {
    if (request.codeChallengeMethod !== 'S256') throw new RedirectError('invalid_request', 'code_challenge_method must be S256');
    if (!CHALLENGE.test(request.codeChallenge)) throw new RedirectError('invalid_request', 'code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~]');
  }

  if (request.resource !== undefined && !isSameResource(request.resource, resource)) {
    throw new RedirectError('invalid_target', `unknown resource: this server issues tokens for ${resource} only`);
  }

  const scopes = resolveScopes(allowedScopes(client.allowedScopes), request.scope);
  if (!scopes.ok) throw new RedirectError('invalid_scope', scopes.description);
  return {
    scope: formatScopes(scopes.scopes),
    openid: scopes.scopes.includes(OPENID),
    nonce: request.nonce,
    codeChallenge: request.codeChallenge,
    state: request.state,
    redirectUriSent: request.redirectUri !== undefined,
  };
}
