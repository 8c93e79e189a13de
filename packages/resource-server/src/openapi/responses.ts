/** Small builders for the response objects of the OpenAPI document. */
export const json = (schema: string, description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
});

export const error = (description: string) => json('Error', description);
export const oauthError = (description: string) => json('OAuthError', description);

export const challengeHeader = {
  'WWW-Authenticate': {
    required: true,
    description: 'RFC 6750 section 3 challenge with `resource_metadata` (RFC 9728 section 5.1, the URL of /.well-known/oauth-protected-resource), e.g. `Bearer realm="heroes", resource_metadata="https://heroes.example/.well-known/oauth-protected-resource", error="invalid_token"`',
    schema: { type: 'string', pattern: 'resource_metadata="[^"]+"' },
  },
};

/** 401/403 of every bearer-protected route. */
export const bearerErrors = {
  '401': { ...error('No token, or an unknown, expired or revoked one, or one whose `aud` does not name this API (RFC 8707)'), headers: challengeHeader },
  '403': { ...error('The token lacks the scope (`insufficient_scope`)'), headers: challengeHeader },
  '503': error('The database or the authorization server is unreachable'),
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
    '429': { ...error('Too many hero creates and updates by this user (HERO_WRITE_LIMIT per HERO_WRITE_WINDOW_MS): `too many hero writes`; nothing written'), headers: { ...retryAfter, ...rateLimitFields } },
  };
}

/** What the edge itself answers on a forwarded route (docs/http.md, "Fair forwarding"). */
export const forwardingAnswers = {
  '429': { ...error('Too many forwarded requests in flight from this client address (AUTH_PROXY_ADDRESS_MAX): `too many concurrent requests from this address`; or, on the OAuth endpoints, the authorization server\'s `temporarily_unavailable` (see its description)'), headers: retryAfter },
};

/** The body of a forwarded POST did not arrive within AUTH_BODY_TIMEOUT_MS. */
export const bodyTimeout = { '408': error('The body did not arrive within AUTH_BODY_TIMEOUT_MS: `request body not received in time`') };
