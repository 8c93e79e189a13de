/**
 * The error responses of a protected route (RFC 6750 section 3), each with
 * its WWW-Authenticate challenge and a JSON body. Every challenge names the
 * realm and the resource's metadata document (`resource_metadata`, RFC 9728
 * section 5.1), where a client finds which authorization server to ask.
 * - no credentials: 401, challenge without an error code (section 3.1).
 * - malformed header: 400 invalid_authorization_header (Aqueduct's body),
 *   challenge `error="invalid_request"`.
 * - more than one Authorization header: 400 invalid_request, same challenge
 *   (RFC 6750 section 3.1: "includes the same parameter more than once";
 *   RFC 9110 section 5.3: Authorization is not a list, so the copies cannot
 *   be combined, and Node would silently keep only the first).
 * - unknown, expired, revoked token, or one whose audience does not include
 *   this resource (RFC 8707): 401 invalid_token.
 * - missing scope: 403 insufficient_scope with the scope needed, in the body
 *   (Aqueduct's `{"error","scope"}`) and in the challenge.
 * - authorization server unreachable: 503 (never 500, never a hang); when
 *   it answered 503 itself (e.g. its database is down) the body says so:
 *   "authorization server cannot validate tokens right now".
 */
import { BadRequestError, ForbiddenError, RetryLaterError, UnauthorizedError } from '@heroes/http-kit';
import type { ProtectedResource } from './protected-resource.ts';

function challenge(resource: ProtectedResource, params: Record<string, string> = {}): Record<string, string> {
  const parts = [`realm="${resource.realm}"`, `resource_metadata="${resource.metadataUrl}"`, ...Object.entries(params).map(([k, v]) => `${k}="${v}"`)];
  return { 'WWW-Authenticate': `Bearer ${parts.join(', ')}` };
}

export const missingCredentials = (resource: ProtectedResource) =>
  new UnauthorizedError('unauthorized', { headers: challenge(resource) });

export const malformedHeader = (resource: ProtectedResource) =>
  new BadRequestError('invalid_authorization_header', { headers: challenge(resource, { error: 'invalid_request' }) });

export const duplicateAuthorization = (resource: ProtectedResource) =>
  new BadRequestError('invalid_request', { headers: challenge(resource, { error: 'invalid_request' }) });

export const invalidToken = (resource: ProtectedResource) =>
  new UnauthorizedError('invalid_token', {
    headers: challenge(resource, { error: 'invalid_token', error_description: 'the access token is invalid, expired or revoked' }),
  });

export const wrongAudience = (resource: ProtectedResource) =>
  new UnauthorizedError('invalid_token', {
    headers: challenge(resource, { error: 'invalid_token', error_description: 'the access token is not meant for this resource' }),
  });

export const insufficientScope = (resource: ProtectedResource, scope: string) =>
  new ForbiddenError('insufficient_scope', {
    details: { scope },
    headers: challenge(resource, { error: 'insufficient_scope', scope }),
  });

/**
 * 503 when introspection failed. When the authorization server answered 503
 * because the shared database is down or hung (its `error_description`
 * names the database: @heroes/db's mapDatabaseError wording), the answer says
 * so, as the edge's own database failures do.
 */
export const authServerUnavailable = (cause: unknown) => {
  const failure = cause as { status?: unknown; cause?: unknown } | undefined;
  const description = (failure?.cause as { error_description?: unknown } | undefined)?.error_description;
  if (failure?.status === 503 && typeof description === 'string' && /\bdatabase\b/.test(description)) {
    return new RetryLaterError(description, { cause, code: 'database_unavailable' });
  }
  // 401 from introspection: the authorization server is up, but refuses this server's own client.
  if (failure?.status === 401) {
    return new RetryLaterError('the authorization server refused this resource server\'s client: check its client id and secret (docs/operations.md)', { cause, code: 'introspection_client_refused' });
  }
  return new RetryLaterError(
    failure?.status === 503 ? 'authorization server cannot validate tokens right now' : 'authorization server unavailable',
    { cause, code: 'authorization_server_unavailable' },
  );
};
