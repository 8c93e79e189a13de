/**
 * Step 2 of /auth/code, once client and redirect URI are trusted (errors redirect back): response_type `code`
 * required; `state` required; PKCE S256 only, required for public clients (RFC 7636); scope resolved against the
 * client's allowed scopes (`openid` only when asked, never authority); `resource` must name the hero API (RFC 8707,
 * invalid_target); `dpop_jkt` must be a SHA-256 thumbprint and binds the code (RFC 9449 section 10).
 */
import { formatScopes, isSameResource, JKT_SYNTAX, OPENID } from '@heroes/oauth-scopes';
import { allowedScopes } from '../../scopes/allowed-scopes.ts';
import { resolveScopes } from '../../scopes/resolve-scopes.ts';
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
  /** False when the request omitted redirect_uri (the registered one is used); see common/code-redirect-uri.ts. */
  redirectUriSent: boolean;
  /** The DPoP key thumbprint the code is bound to (RFC 9449 section 10). */
  dpopJkt: string | undefined;
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

  if (request.dpopJkt !== undefined && !JKT_SYNTAX.test(request.dpopJkt)) {
    throw new RedirectError('invalid_request', 'dpop_jkt must be a SHA-256 JWK thumbprint (RFC 7638): 43 base64url characters');
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
    dpopJkt: request.dpopJkt,
  };
}
