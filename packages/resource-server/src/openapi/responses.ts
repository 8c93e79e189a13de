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

export const challengeHeader = {
  'WWW-Authenticate': { required: true, description: 'RFC 6750 section 3 challenge, e.g. `Bearer realm="heroes", error="invalid_token"`', schema: { type: 'string' } },
};

/** 401/403 of every bearer-protected route. */
export const bearerErrors = {
  '401': { ...error('No token, or an unknown, expired or revoked one', { error: 'invalid_token' }), headers: challengeHeader },
  '403': { ...error('The token lacks the scope (`insufficient_scope`)', { error: 'insufficient_scope', scope: 'heroes:write' }), headers: challengeHeader },
  '503': error('The database or the authorization server is unreachable', { error: 'authorization server unavailable' }),
};

export const formBody = (schema: string) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { $ref: `#/components/schemas/${schema}` } } },
});
