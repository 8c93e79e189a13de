/** The authorization server's routes (reached through the edge) in the OpenAPI document. */
import { authBodyErrors, bodyTimeout, forwardingAnswers, formBody, json, oauthError } from './responses.ts';

const clientAuth = [{ clientBasic: [] }, {}];
const invalidClient = { error: 'invalid_client', error_description: 'client authentication failed' };
const missingToken = { error: 'invalid_request', error_description: "missing required parameter 'token'" };
const clientThrottled = { error: 'temporarily_unavailable', error_description: 'too many failed client authentications; retry after 60 s' };
const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' } } } });
const retryAfter = { 'Retry-After': { required: true, schema: { type: 'integer', minimum: 1 } } };
const databaseDown = { ...oauthError('temporarily_unavailable: the database is unreachable; retry after `Retry-After` seconds', { error: 'temporarily_unavailable', error_description: 'database error' }), headers: retryAfter };
/** The edge's own 429 (docs/http.md, fair forwarding) beside the authorization server's. */
const BUSY_ADDRESS = 'too many forwarded requests in flight from this client address (AUTH_PROXY_ADDRESS_MAX; `{"error":"too many concurrent requests from this address"}`)';
const throttled = (description: string, example?: Record<string, unknown>) => ({ ...oauthError(`${description}; or ${BUSY_ADDRESS}`, example), headers: retryAfter });

export const AUTH_PATHS = {
  '/auth/token': {
    post: {
      tags: ['oauth'],
      summary: 'Get a token (RFC 6749)',
      description: 'Grants `password`, `authorization_code` (PKCE, RFC 7636), `refresh_token` and `client_credentials` (RFC 6749 section 4.4, confidential clients only), each client only those it is registered for (`unauthorized_client` otherwise). Confidential clients authenticate with HTTP Basic; public clients send `client_id`. `resource` (RFC 8707) may name the hero API (its identifier: `resource` of /.well-known/oauth-protected-resource); every access token carries it in `aud`. ' +
        'With a `DPoP` proof (RFC 9449) the access token is bound to the proof\'s key (`token_type: DPoP`); a refresh of a bound grant needs a proof of the same key.',
      security: clientAuth,
      parameters: [
        { name: 'DPoP', in: 'header', description: 'A DPoP proof JWT (RFC 9449 section 4): `htm` POST, `htu` this URL; required for clients registered with `--require-dpop`', schema: { type: 'string' } },
      ],
      requestBody: formBody('TokenRequest'),
      responses: {
        '200': { ...json('TokenResponse', 'The token'), headers: { 'DPoP-Nonce': { description: 'With a DPoP proof: the nonce for the next proof (RFC 9449 section 8)', schema: { type: 'string' } } } },
        '400': {
          ...oauthError('invalid_request, invalid_grant, unauthorized_client, unsupported_grant_type, invalid_scope, invalid_target (a `resource` other than the hero API), invalid_dpop_proof (a bad proof, or none from a `--require-dpop` client) or use_dpop_nonce (send the proof again with the `DPoP-Nonce` given)', { error: 'invalid_grant', error_description: 'grant request is invalid' }),
          headers: { 'DPoP-Nonce': { description: 'The nonce to put in the next DPoP proof (RFC 9449 section 8)', schema: { type: 'string' } } },
        },
        '401': oauthError('invalid_client', invalidClient),
        ...bodyTimeout,
        ...authBodyErrors,
        '429': throttled('temporarily_unavailable: too many failed logins of the account (password grant) or failed authentications of the client, or from the client address; retry after `Retry-After` seconds', { error: 'temporarily_unavailable', error_description: 'too many failed logins; retry after 60 s' }),
        '503': oauthError('temporarily_unavailable: the database is unreachable, or too many password checks at once (PASSWORD_HASH_QUEUE_MAX); retry after `Retry-After` seconds', { error: 'temporarily_unavailable', error_description: 'server busy, retry later' }),
      },
    },
  },
  '/auth/code': {
    get: {
      tags: ['oauth'],
      summary: 'Login form of the authorization-code flow',
      parameters: [
        { name: 'client_id', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'response_type', in: 'query', required: true, schema: { const: 'code' } },
        { name: 'state', in: 'query', required: true, schema: { type: 'string', maxLength: 1024 } },
        { name: 'redirect_uri', in: 'query', schema: { type: 'string' } },
        { name: 'scope', in: 'query', schema: { type: 'string' } },
        { name: 'code_challenge', in: 'query', description: 'required for public clients', schema: { type: 'string' } },
        { name: 'code_challenge_method', in: 'query', schema: { const: 'S256' } },
        { name: 'dpop_jkt', in: 'query', description: 'RFC 9449 section 10: binds the code to this DPoP key', schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' } },
        { name: 'resource', in: 'query', description: 'RFC 8707: the hero API\'s identifier; another → redirected back with `error=invalid_target`', schema: { type: 'string' } },
      ],
      responses: {
        '200': html('The login form'),
        '302': { description: 'A request the client can be told about (e.g. `invalid_scope`): to `redirect_uri?error=…&state=…&iss=…` (RFC 6749 section 4.1.2.1, RFC 9207)', headers: { Location: { required: true, schema: { type: 'string' } } } },
        '400': html('An invalid request that cannot go back to the client (unknown client, wrong redirect_uri), shown as a page'),
        '503': { description: 'The database is unreachable (`Retry-After`): a page, or JSON when the browser does not ask for HTML first', content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { error: 'database error' } } }, headers: retryAfter },
        ...forwardingAnswers,
      },
    },
    post: {
      tags: ['oauth'],
      summary: 'Grant a code',
      requestBody: formBody('AuthorizationRequest'),
      responses: {
        '302': { description: 'To `redirect_uri?code=…&state=…&iss=…` (RFC 9207), or with `error=…`', headers: { Location: { schema: { type: 'string' } } } },
        '200': html('The form again, after a wrong username or password; with `prompt=create`, the "Create account" form again, the username kept'),
        '400': html('An invalid request, shown as a page'),
        '403': html('A form posted from another site (its `Origin` or `Referer` is not this service\'s)'),
        ...authBodyErrors,
        ...bodyTimeout,
        '429': {
          description: `Too many failed logins of the account or the client address (a page); or ${BUSY_ADDRESS}`,
          content: { 'text/html': { schema: { type: 'string' } }, 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example: { error: 'too many concurrent requests from this address' } } },
          headers: retryAfter,
        },
        '503': html('Too many password checks at once (`Retry-After`)'),
      },
    },
  },
  '/auth/revoke': {
    post: {
      tags: ['oauth'],
      summary: 'Revoke a token (RFC 7009)',
      security: clientAuth,
      requestBody: formBody('TokenOnly'),
      responses: { '200': { description: 'Revoked, or unknown (indistinguishable)' }, '400': oauthError('invalid_request', missingToken), '401': oauthError('invalid_client', invalidClient), ...bodyTimeout, ...authBodyErrors, '429': throttled('temporarily_unavailable: too many failed authentications of the client or from the client address; retry after `Retry-After` seconds', clientThrottled), '503': databaseDown },
    },
  },
  '/auth/introspect': {
    post: {
      tags: ['oauth'],
      summary: 'Introspect a token (RFC 7662)',
      description: 'Confidential clients, for their own tokens; the resource server\'s client for any.',
      security: [{ clientBasic: [] }],
      requestBody: formBody('TokenOnly'),
      responses: { '200': json('Introspection', 'The token\'s state'), '400': oauthError('invalid_request', missingToken), '401': oauthError('invalid_client', invalidClient), ...bodyTimeout, ...authBodyErrors, '429': throttled('temporarily_unavailable: too many failed authentications of the client or from the client address; retry after `Retry-After` seconds', clientThrottled), '503': databaseDown },
    },
  },
  '/auth/jwks': {
    get: { tags: ['oauth'], summary: 'Public signing keys of ID tokens', responses: { '200': { description: 'JWK set', content: { 'application/jwk-set+json': { schema: { $ref: '#/components/schemas/Jwks' } } } }, ...forwardingAnswers } },
  },
  '/.well-known/oauth-authorization-server': {
    get: { tags: ['oauth'], summary: 'Server metadata (RFC 8414)', responses: { '200': json('ServerMetadata', 'The metadata'), ...forwardingAnswers } },
  },
  '/.well-known/openid-configuration': {
    get: { tags: ['oauth'], summary: 'Server metadata (OpenID Connect Discovery)', responses: { '200': json('ServerMetadata', 'The metadata'), ...forwardingAnswers } },
  },
};
