/**
 * The error responses of a protected route (RFC 6750 section 3), each with
 * its WWW-Authenticate challenge and a JSON body.
 * - no credentials: 401, challenge without an error code (section 3.1).
 * - malformed header: 400 invalid_authorization_header (Aqueduct's body),
 *   challenge `error="invalid_request"`.
 * - unknown, expired, revoked token: 401 invalid_token.
 * - missing scope: 403 insufficient_scope with the scope needed, in the body
 *   (Aqueduct's `{"error","scope"}`) and in the challenge.
 * - authorization server unreachable: 503 (never 500, never a hang).
 */
import { BadRequestError, ForbiddenError, ServiceUnavailableError, UnauthorizedError } from '@heroes/http-kit';

function challenge(realm: string, params: Record<string, string> = {}): Record<string, string> {
  const parts = [`realm="${realm}"`, ...Object.entries(params).map(([k, v]) => `${k}="${v}"`)];
  return { 'WWW-Authenticate': `Bearer ${parts.join(', ')}` };
}

export const missingCredentials = (realm: string) =>
  new UnauthorizedError('unauthorized', { headers: challenge(realm) });

export const malformedHeader = (realm: string) =>
  new BadRequestError('invalid_authorization_header', { headers: challenge(realm, { error: 'invalid_request' }) });

export const invalidToken = (realm: string) =>
  new UnauthorizedError('invalid_token', {
    headers: challenge(realm, { error: 'invalid_token', error_description: 'the access token is invalid, expired or revoked' }),
  });

export const insufficientScope = (realm: string, scope: string) =>
  new ForbiddenError('insufficient_scope', {
    details: { scope },
    headers: challenge(realm, { error: 'insufficient_scope', scope }),
  });

export const authServerUnavailable = (cause: unknown) =>
  new ServiceUnavailableError('authorization server unavailable', { cause, code: 'authorization_server_unavailable' });
