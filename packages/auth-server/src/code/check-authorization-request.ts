/**
 * Step 2 of /auth/code: the authorization request itself, once the client
 * and redirect URI are trusted (errors are redirected back).
 *
 * Rules enforced here:
 * - response_type must be `code` → unsupported_response_type;
 * - state is required (Aqueduct; CSRF protection) → invalid_request;
 * - PKCE (RFC 7636): a public client must send code_challenge, and any
 *   code_challenge must be 43–128 unreserved characters with method S256
 *   (`plain` is not supported) → invalid_request;
 * - scope against the client's allowed scopes (resolveScopes) → invalid_scope.
 */
import { resolveScopes } from '../scopes/resolve-scopes.ts';
import type { CodeClient } from './check-client.ts';
import type { CodeRequest } from './code-request.ts';
import { RedirectError } from './code-flow-errors.ts';

const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface AuthorizationRequest {
  scope: string | undefined;
  codeChallenge: string | undefined;
  state: string;
}

export function checkAuthorizationRequest(client: CodeClient, request: CodeRequest): AuthorizationRequest {
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

  const scopes = resolveScopes(client.allowedScopes, request.scope);
  if (!scopes.ok) throw new RedirectError('invalid_scope', scopes.description);
  return { scope: scopes.scope, codeChallenge: request.codeChallenge, state: request.state };
}
