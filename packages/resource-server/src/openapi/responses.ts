/** Small builders for the response objects of the OpenAPI document. */
export const json = (schema: string, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

/**
 * An error answer; `example` is the body the service really sends for it (what /docs shows under
 * that status: one shared example would show every status the same body).
 */
export const error = (description: string, example?: Record<string, unknown>) => withExample(json('Error', description), example);
export const oauthError = (description: string, example?: Record<string, unknown>) => withExample(json('OAuthError', description), example);

function withExample<T extends { content: Record<string, object> }>(response: T, example: Record<string, unknown> | undefined): T {
  if (!example) return response;
  return { ...response, content: { 'application/json': { ...response.content['application/json'], example } } };
}

/** The answers of every route that reads a JSON body (http-kit's body rules, docs/http.md). */
export const bodyErrors = {
  '413': error('Body over MAX_BODY_BYTES', { error: 'entity length exceeds maximum' }),
  '415': error('Content-Type is not JSON, or a charset other than UTF-8, or an unknown Content-Encoding', { error: 'unsupported media type' }),
};

/** The answers of every /auth/* endpoint that reads a form body. */
export const authBodyErrors = {
  '413': error('Body over AUTH_MAX_BODY_BYTES (64 KiB by default), refused before it is read', { error: 'entity length exceeds maximum' }),
};

const challengeHeader = {
  'WWW-Authenticate': {
    required: true,
    description: 'RFC 6750 section 3 challenge with `resource_metadata` (RFC 9728 section 5.1, the URL of /.well-known/oauth-protected-resource), e.g. `Bearer realm="heroes", resource_metadata="https://heroes.example/.well-known/oauth-protected-resource", error="invalid_token"`; for DPoP (RFC 9449 section 7.1) `DPoP realm="heroes", resource_metadata="…", error="invalid_dpop_proof", error_description="…", algs="ES256 …"`. Without credentials both schemes are offered.',
    schema: { type: 'string', pattern: 'resource_metadata="[^"]+"' },
  },
};

/** 401/403 of every bearer-protected route. */
export const bearerErrors = {
  '401': { ...error('No token, or an unknown, expired or revoked one, or one whose `aud` does not name this API (RFC 8707) (`invalid_token`); a DPoP-bound token sent as Bearer, or without a valid, unused proof of its key (`invalid_dpop_proof`)', { error: 'invalid_token' }), headers: challengeHeader },
  '403': { ...error('The token lacks the scope (`insufficient_scope`)', { error: 'insufficient_scope', scope: 'heroes:write' }), headers: challengeHeader },
  '503': error('The database or the authorization server is unreachable', { error: 'authorization server unavailable' }),
};

export const formBody = (schema: string) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

const retryAfter = { 'Retry-After': { required: true, description: 'seconds to wait (RFC 9110 section 10.2.3)', schema: { type: 'integer', minimum: 1 } } };
const rateLimitFields = {
  'RateLimit-Policy': { description: 'draft-ietf-httpapi-ratelimit-headers: `"hero-writes";q=<HERO_WRITE_LIMIT>;w=<window seconds>`', schema: { type: 'string' } },
  RateLimit: { description: 'draft-ietf-httpapi-ratelimit-headers: `"hero-writes";r=<writes left>;t=<seconds to the window\'s end>`', schema: { type: 'string' } },
};

/** The answers of a counted hero write (docs/heroes-api.md, "Write limits"): `ok` with the RateLimit fields, and the 429. */
export function writeLimited(ok: ReturnType<typeof json>): Record<string, unknown> {
  return {
    '200': { ...ok, headers: rateLimitFields },
    '429': { ...error('Too many hero creates and updates by this user (HERO_WRITE_LIMIT per HERO_WRITE_WINDOW_MS): `too many hero writes`; nothing written', { error: 'too many hero writes' }), headers: { ...retryAfter, ...rateLimitFields } },
  };
}

/** What the edge itself answers on a forwarded route (docs/http.md, "Fair forwarding"). */
export const forwardingAnswers = {
  '429': { ...error('Too many forwarded requests in flight from this client address (AUTH_PROXY_ADDRESS_MAX): `too many concurrent requests from this address`; or, on the OAuth endpoints, the authorization server\'s `temporarily_unavailable` (see its description)', { error: 'too many concurrent requests from this address' }), headers: retryAfter },
};

/** The body of a forwarded POST did not arrive within AUTH_BODY_TIMEOUT_MS. */
export const bodyTimeout = { '408': error('The body did not arrive within AUTH_BODY_TIMEOUT_MS: `request body not received in time`', { error: 'request body not received in time' }) };
