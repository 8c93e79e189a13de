/**
 * The body schemas of the OpenAPI document (JSON Schema 2020-12, as
 * OpenAPI 3.1 uses it). Each one matches what the routes really send or
 * accept; test/openapi/ checks real answers against them.
 */
import { FIXED } from '../config/defaults.ts';

const error = (description: string) => ({
  type: 'object',
  description,
  required: ['error'],
  properties: {
    error: { type: 'string', description: 'short reason' },
    reasons: { type: 'array', items: { type: 'string' }, description: 'with `entity validation failed`: one line per refused key or value' },
  },
  additionalProperties: true,
});

export const SCHEMAS = {
  Hero: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
    additionalProperties: false,
    examples: [{ id: 11, name: 'Mr. Nice' }],
  },
  HeroList: { type: 'array', items: { $ref: '#/components/schemas/Hero' } },
  HeroName: {
    type: 'object',
    required: ['name'],
    properties: {
      name: { type: 'string', minLength: 1, maxLength: FIXED.maxHeroNameLength },
      id: { type: 'integer', description: 'ignored: the server assigns it (as Aqueduct\'s heroes tutorial, `ignore: ["id"]`); with PUT /heroes/{id}, it must equal the path\'s' },
    },
    additionalProperties: false,
    description: 'Any other key is refused (400 `entity validation failed` naming it).',
    examples: [{ name: 'Dr. IQ' }],
  },
  HeroUpdate: {
    type: 'object',
    required: ['id', 'name'],
    properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string', minLength: 1, maxLength: FIXED.maxHeroNameLength } },
    additionalProperties: false,
    description: 'What the Tour of Heroes app sends to `PUT /heroes`. Any other key is refused (400 `entity validation failed` naming it).',
    examples: [{ id: 11, name: 'Dr. Nice' }],
  },
  Registration: {
    type: 'object',
    required: ['username', 'password'],
    properties: {
      username: { type: 'string', minLength: 1, maxLength: FIXED.maxUsernameLength },
      password: {
        type: 'string', minLength: 8, writeOnly: true,
        description: `at least PASSWORD_MIN_LENGTH characters (default 8), at most ${FIXED.maxPasswordBytes} UTF-8 bytes; any characters, no composition rules; the most common passwords and the username are refused (NIST SP 800-63B)`,
      },
    },
    additionalProperties: false,
    description: 'Any other key is refused (400 `entity validation failed` naming it).',
    examples: [{ username: 'bob', password: 'bobs-long-password' }],
  },
  User: {
    type: 'object',
    required: ['id', 'username'],
    properties: { id: { type: 'integer' }, username: { type: 'string' } },
    additionalProperties: false,
  },
  Error: error('Every error of the edge: `{"error": …}`, sometimes with details.'),
  OAuthError: {
    type: 'object',
    description: 'RFC 6749 section 5.2 error answer.',
    required: ['error'],
    properties: {
      error: { type: 'string', examples: ['invalid_request', 'invalid_client', 'invalid_grant', 'unauthorized_client', 'unsupported_grant_type', 'invalid_scope', 'temporarily_unavailable'] },
      error_description: { type: 'string' },
    },
    additionalProperties: true,
  },
  TokenRequest: {
    type: 'object',
    description: 'One of the four grants; the client authenticates with HTTP Basic (confidential) or sends `client_id` (public).',
    required: ['grant_type'],
    properties: {
      grant_type: { type: 'string', enum: ['password', 'authorization_code', 'refresh_token', 'client_credentials'] },
      username: { type: 'string', description: 'password grant' },
      password: { type: 'string', description: 'password grant', writeOnly: true },
      code: { type: 'string', description: 'authorization_code grant' },
      redirect_uri: { type: 'string', description: 'authorization_code grant' },
      code_verifier: { type: 'string', description: 'authorization_code grant (PKCE, RFC 7636)' },
      refresh_token: { type: 'string', description: 'refresh_token grant' },
      scope: { type: 'string', description: 'space-separated scopes' },
      resource: { type: 'string', format: 'uri', description: 'RFC 8707 resource indicator: the hero API\'s identifier (any grant)' },
      client_id: { type: 'string', description: 'public clients' },
    },
  },
  TokenResponse: {
    type: 'object',
    required: ['access_token', 'token_type', 'expires_in'],
    properties: {
      access_token: { type: 'string' },
      token_type: { type: 'string', enum: ['bearer', 'DPoP'], description: '`DPoP` when the request carried a DPoP proof (the token is bound to its key, RFC 9449), else `bearer`' },
      expires_in: { type: 'integer' },
      refresh_token: { type: 'string', description: 'clients with a secret only' },
      scope: { type: 'string', description: 'when the token has scopes' },
      id_token: { type: 'string', description: 'code flow with scope `openid`' },
    },
  },
  TokenOnly: {
    type: 'object',
    required: ['token'],
    properties: { token: { type: 'string' }, token_type_hint: { type: 'string', enum: ['access_token', 'refresh_token'] }, client_id: { type: 'string' } },
  },
  Introspection: {
    type: 'object',
    description: 'RFC 7662 section 2.2.',
    required: ['active'],
    properties: {
      active: { type: 'boolean' },
      scope: { type: 'string' },
      client_id: { type: 'string' },
      username: { type: 'string' },
      token_type: { type: 'string' },
      exp: { type: 'integer' },
      iat: { type: 'integer' },
      sub: { type: 'string', description: 'the user; absent for a client-credentials token' },
      iss: { type: 'string' },
      aud: { description: 'RFC 8707: the resources the token is for (the hero API\'s identifier)', oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      grant_id: { type: 'string' },
    },
  },
  AuthorizationRequest: {
    type: 'object',
    required: ['client_id', 'response_type', 'state'],
    // A sign-in needs the credentials; `prompt=create` only asks for the "Create account" form again.
    if: { properties: { prompt: { const: 'create' } }, required: ['prompt'] },
    else: { required: ['username', 'password'] },
    properties: {
      client_id: { type: 'string' },
      response_type: { const: 'code' },
      redirect_uri: { type: 'string' },
      state: { type: 'string', maxLength: 1024 },
      scope: { type: 'string' },
      code_challenge: { type: 'string', maxLength: 128 },
      code_challenge_method: { const: 'S256' },
      nonce: { type: 'string', maxLength: 1024 },
      dpop_jkt: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$', description: 'RFC 9449 section 10: binds the code to this DPoP key (its RFC 7638 SHA-256 thumbprint); the exchange needs a proof of it' },
      resource: { type: 'string', description: 'RFC 8707: the hero API\'s identifier' },
      username: { type: 'string' },
      password: { type: 'string', writeOnly: true },
      prompt: { const: 'create', description: 'The "Create account" form again (what the edge answers a refused `POST /register?return_to=…` with): `username` kept, no code granted, no password needed' },
      register_error: { type: 'string', description: 'With `prompt=create`: why the account was refused, a code of a fixed list (missing, username_taken, username_similar, username_invalid, password_rejected, too_many, unavailable, invalid); the page shows its own words for it, nothing for any other value' },
    },
  },
  ServerMetadata: {
    type: 'object',
    description: 'RFC 8414 authorization server metadata.',
    required: ['issuer', 'token_endpoint', 'authorization_endpoint', 'jwks_uri'],
    properties: {
      issuer: { type: 'string' },
      token_endpoint: { type: 'string' },
      authorization_endpoint: { type: 'string' },
      revocation_endpoint: { type: 'string' },
      introspection_endpoint: { type: 'string' },
      jwks_uri: { type: 'string' },
      grant_types_supported: { type: 'array', items: { type: 'string' } },
      scopes_supported: { type: 'array', items: { type: 'string' } },
      code_challenge_methods_supported: { type: 'array', items: { type: 'string' } },
    },
  },
  ProtectedResourceMetadata: {
    type: 'object',
    description: 'RFC 9728 protected resource metadata of the hero API.',
    required: ['resource', 'authorization_servers'],
    properties: {
      resource: { type: 'string', format: 'uri', description: 'The resource identifier: the `aud` of its tokens, the `resource` to request them with' },
      authorization_servers: { type: 'array', items: { type: 'string', format: 'uri' }, description: 'Issuers whose metadata is at {issuer}/.well-known/oauth-authorization-server' },
      scopes_supported: { type: 'array', items: { type: 'string' } },
      bearer_methods_supported: { type: 'array', items: { const: 'header' } },
      resource_name: { type: 'string' },
      resource_documentation: { type: 'string', format: 'uri' },
    },
  },
  Jwks: {
    type: 'object',
    required: ['keys'],
    properties: { keys: { type: 'array', items: { type: 'object', required: ['kty'], properties: { kty: { type: 'string' }, kid: { type: 'string' } } } } },
  },
  Liveness: { type: 'object', required: ['status'], properties: { status: { const: 'live' } } },
  Readiness: {
    type: 'object',
    required: ['status'],
    properties: {
      status: { enum: ['ready', 'unavailable', 'draining'] },
      checks: { type: 'object', additionalProperties: { enum: ['up', 'down'] } },
    },
  },
} as const;
