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
