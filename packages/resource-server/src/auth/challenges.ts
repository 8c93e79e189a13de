/**
 * The error answers of a protected route (RFC 6750 section 3), each with a challenge naming the realm and
 * `resource_metadata` (RFC 9728 section 5.1): no credentials 401 (DPoP offered too); malformed or repeated header
 * 400 invalid_request; bad, expired, revoked or foreign-audience token 401 invalid_token; missing scope 403; DPoP
 * failures with a DPoP challenge (RFC 9449 section 7.1); authorization server unreachable → 503, never 500.
 */
import { BadRequestError, ForbiddenError, RetryLaterError, UnauthorizedError } from '@heroes/http-kit';
import { DPOP_SIGNING_ALGS } from '@heroes/oauth-scopes';
import type { ProtectedResource } from './protected-resource.ts';

function challenge(resource: ProtectedResource, params: Record<string, string> = {}): Record<string, string> {
  const parts = [`realm="${resource.realm}"`, `resource_metadata="${resource.metadataUrl}"`, ...Object.entries(params).map(([k, v]) => `${k}="${v}"`)];
  return { 'WWW-Authenticate': `Bearer ${parts.join(', ')}` };
}

function dpopChallenge(resource: ProtectedResource, params: Record<string, string> = {}): string {
  const parts = [`realm="${resource.realm}"`, `resource_metadata="${resource.metadataUrl}"`, ...Object.entries(params).map(([k, v]) => `${k}="${v}"`), `algs="${DPOP_SIGNING_ALGS.join(' ')}"`];
  return `DPoP ${parts.join(', ')}`;
}

export const missingCredentials = (resource: ProtectedResource) =>
  new UnauthorizedError('unauthorized', { headers: { 'WWW-Authenticate': `${challenge(resource)['WWW-Authenticate']}, ${dpopChallenge(resource)}` } });

/** 401 invalid_dpop_proof: the proof is missing, malformed, fails a check, is replayed or is of another key. */
export const invalidDpopProof = (resource: ProtectedResource, description: string) =>
  new UnauthorizedError('invalid_dpop_proof', {
    details: { error_description: description },
    headers: { 'WWW-Authenticate': dpopChallenge(resource, { error: 'invalid_dpop_proof', error_description: description }) },
  });

/** 401 invalid_token under the DPoP scheme (an unknown token or audience, a bearer token sent as DPoP, a bound token sent as Bearer). */
export const invalidDpopToken = (resource: ProtectedResource, description: string) =>
  new UnauthorizedError('invalid_token', {
    details: { error_description: description },
    headers: { 'WWW-Authenticate': dpopChallenge(resource, { error: 'invalid_token', error_description: description }) },
  });

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
 * names the database: http-kit's answerDatabaseFailures wording), the answer says
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
