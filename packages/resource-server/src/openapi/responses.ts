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
    description: 'RFC 6750 section 3 challenge, e.g. `Bearer realm="heroes", error="invalid_token"`; for DPoP (RFC 9449 section 7.1) `DPoP realm="heroes", error="invalid_dpop_proof", error_description="…", algs="ES256 …"`. Without credentials both schemes are offered.',
    schema: { type: 'string' },
  },
};

/** 401/403 of every bearer-protected route. */
export const bearerErrors = {
  '401': { ...error('No token, or an unknown, expired or revoked one (`invalid_token`); a DPoP-bound token sent as Bearer, or without a valid, unused proof of its key (`invalid_dpop_proof`)'), headers: challengeHeader },
  '403': { ...error('The token lacks the scope (`insufficient_scope`)'), headers: challengeHeader },
  '503': error('The database or the authorization server is unreachable'),
};

export const formBody = (schema: string) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { $ref: `#/components/schemas/${schema}` } } },
});
