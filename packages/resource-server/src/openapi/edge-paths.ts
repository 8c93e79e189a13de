/** The edge's own routes in the OpenAPI document. */
import { HEROES_READ, HEROES_WRITE } from '@heroes/oauth-scopes';
import { bearerErrors, bodyErrors, error, json, writeLimited } from './responses.ts';

// Any integer: one no hero can have (0, -1, beyond 2147483647) is simply not found (404); a non-integer is a 400.
const heroId = { name: 'id', in: 'path', required: true, schema: { type: 'integer' }, example: 11, description: 'A hero id; an integer no hero can have (≤ 0, > 2147483647) answers 404' };
const heroBody = (schema: string) => ({ required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } } });
// Any scheme: a token from "Authorize" (oauth2), one pasted as is (bearerToken), or a DPoP-bound one with its proof (dpop).
const read = [{ oauth2: [HEROES_READ] }, { bearerToken: [] }, { dpop: [] }];
const write = [{ oauth2: [HEROES_WRITE] }, { bearerToken: [] }, { dpop: [] }];

/** `/heroes/abc`, `/heroes/1.5`: Aqueduct's `invalid value for path value 'id'`. */
const badId = error('`id` in the path is not an integer', { error: "invalid value for path value 'id'" });
const notFound = error('No such hero', { error: 'not found' });
const nameTaken = error('A hero has this name', { error: 'entity_already_exists' });
const badHero = (description: string) => error(description, { error: 'entity validation failed', reasons: ["invalid input key 'power'"] });

/** /app and /docs sign users in, so they work only at PUBLIC_BASE_URL (routes/public-origin.ts). */
const toPublicBaseUrl = {
  description: 'Opened on another host name than PUBLIC_BASE_URL\'s: redirect to the same path there',
  headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } },
};

/** Idempotency-Key (draft-ietf-httpapi-idempotency-key-header) of the two creates: routes/idempotency/. */
const idempotencyKey = {
  name: 'Idempotency-Key', in: 'header', required: false,
  schema: { type: 'string', pattern: '^"([\\x20\\x21\\x23-\\x5b\\x5d-\\x7e]|\\\\["\\\\])+"$', maxLength: 512 },
  description: 'A quoted string (RFC 8941) of 1 to 255 printable ASCII characters, new for each create, e.g. `"8e03978e-40d5-43e8-bc93-6894a57f9324"`: a repeat with the same key and body gets the first answer (kept IDEMPOTENCY_KEY_HOURS, 24 by default) and creates nothing. Send it again when a create got no answer.',
};
const keyReused = error('This `Idempotency-Key` was used for another request (another body, or another user/client): use a new key', { error: 'this Idempotency-Key was used for another request; use a new key for each request' });
const keyInUse = (other: string, example: Record<string, unknown>) => ({
  ...error(`${other}, or (\`idempotency_key_in_use\`) a request with this \`Idempotency-Key\` is still running: retry after \`Retry-After\` seconds`, example),
  headers: { 'Retry-After': { description: 'With `idempotency_key_in_use`', schema: { type: 'integer', minimum: 1 } } },
});

/** With `return_to`, a refusal is answered with the "Create account" form again (routes/register/register-from-page.ts). */
const orFormAgain = <T extends { description: string; content: Record<string, object> }>(response: T): T => ({
  ...response,
  description: `${response.description}. With \`return_to\`: the "Create account" form again (HTML), the username kept`,
  content: { ...response.content, 'text/html': { schema: { type: 'string' } } },
});

export const EDGE_PATHS = {
  '/.well-known/oauth-protected-resource': {
    get: {
      tags: ['oauth'],
      summary: 'Protected resource metadata (RFC 9728)',
      description: 'Which authorization server issues tokens for this API, its identifier (the `aud` of those tokens and the `resource` to ask for) and scopes. Every 401 of a hero route names this URL in `resource_metadata`.',
      responses: { '200': json('ProtectedResourceMetadata', 'The metadata') },
    },
  },
  '/register': {
    post: {
      tags: ['users'],
      summary: 'Register a user',
      description: 'JSON or form body. The password is stored as a bcrypt hash and never returned. With `return_to` (the login page\'s "Create account" form), success is a 303 back to the login form, and a refusal the form again as a page, with the status below.',
      parameters: [idempotencyKey, {
        name: 'return_to', in: 'query', required: false, schema: { type: 'string', pattern: '^/auth/code\\?', maxLength: 8192 },
        description: 'The login form to go back to (a `/auth/code?…` path): success → 303 there with `registered=1`; a refusal → the "Create account" form again (text/html, the refusal\'s status, the username kept, the message of its code), or, when the authorization server cannot draw it, 303 there with `prompt=create&register_error=<code>` (a code of a fixed list: missing, username_taken, username_similar, username_invalid, password_rejected, too_many, unavailable, invalid; never text). Only from this service\'s own pages (`Origin`/`Referer` of PUBLIC_BASE_URL, else 403).',
      }],
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/Registration' } },
          'application/x-www-form-urlencoded': { schema: { $ref: '#/components/schemas/Registration' } },
        },
      },
      responses: {
        '200': json('User', 'The new user'),
        '303': { description: 'With `return_to`: back to the login form', headers: { Location: { required: true, schema: { type: 'string', format: 'uri' } } } },
        '400': orFormAgain(error('Missing or invalid username or password (the password rule broken is named in `reasons`), or a malformed body, or a `return_to` that is not a login form path, or an invalid `Idempotency-Key`', { error: 'entity validation failed', reasons: ['password: at least 8 characters'] })),
        '403': error('With `return_to`: a form posted from another site', { error: "cross-site request refused: create accounts from this service's own login page" }),
        '409': orFormAgain(keyInUse('The username is taken (its key: the same name in another case or width), or looks like an existing one (its confusable skeleton; `reasons` says so)', { error: 'entity_already_exists' })),
        '422': keyReused,
        '413': orFormAgain(error('Body over AUTH_MAX_BODY_BYTES (64 KiB by default)', { error: 'entity length exceeds maximum' })),
        '415': orFormAgain(error('Unsupported Content-Type or charset', { error: 'unsupported media type' })),
        '503': { ...orFormAgain(error('Password hashing is saturated (PASSWORD_HASH_QUEUE_MAX waiting), or the database is unreachable; retry after `Retry-After` seconds', { error: 'server busy, retry later' })), headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } } },
        '429': { ...orFormAgain(error('Too many registrations from this client address (REGISTER_ADDRESS_LIMIT); retry after `Retry-After` seconds', { error: 'too many registrations from this address' })), headers: { 'Retry-After': { schema: { type: 'integer', minimum: 1 } } } },
      },
    },
  },
  '/heroes': {
    get: {
      tags: ['heroes'],
      summary: 'List heroes',
      description: 'Ordered by id. With `limit`, one page and a `Link: <…>; rel="next"` header when more follow.',
      security: read,
      parameters: [
        { name: 'name', in: 'query', description: 'case-insensitive substring of the name', schema: { type: 'string' } },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000 } },
        { name: 'after', in: 'query', description: 'list heroes after this id', schema: { type: 'integer', minimum: 0 } },
      ],
      responses: {
        '200': { ...json('HeroList', 'The heroes'), headers: { Link: { description: 'RFC 8288 `rel="next"` link to the next page', schema: { type: 'string' } } } },
        '400': error('Invalid query parameter', { error: "invalid value for query value 'limit'" }),
        ...bearerErrors,
      },
    },
    post: {
      tags: ['heroes'],
      summary: 'Create a hero',
      security: write,
      parameters: [idempotencyKey],
      requestBody: heroBody('HeroName'),
      responses: {
        ...writeLimited(json('Hero', 'The created hero (or, for a repeat with the same `Idempotency-Key`, the first answer)')),
        '400': badHero('Missing or invalid name, or a key other than `name` and `id`, or an invalid `Idempotency-Key`'),
        '409': keyInUse('A hero has this name', { error: 'entity_already_exists' }),
        '422': keyReused,
        ...bodyErrors,
        ...bearerErrors,
      },
    },
    put: {
      tags: ['heroes'],
      summary: 'Rename a hero (id in the body)',
      security: write,
      requestBody: heroBody('HeroUpdate'),
      responses: { ...writeLimited(json('Hero', 'The renamed hero')), '400': badHero('Missing or invalid id or name, or another key'), '404': notFound, '409': nameTaken, ...bodyErrors, ...bearerErrors },
    },
  },
  '/heroes/{id}': {
    parameters: [heroId],
    get: {
      tags: ['heroes'],
      summary: 'Get one hero',
      security: read,
      responses: { '200': json('Hero', 'The hero'), '400': badId, '404': notFound, ...bearerErrors },
    },
    put: {
      tags: ['heroes'],
      summary: 'Rename a hero',
      security: write,
      requestBody: heroBody('HeroName'),
      responses: { ...writeLimited(json('Hero', 'The renamed hero')), '400': badHero('`id` in the path is not an integer, or a missing or invalid name, or a body `id` other than the path\'s'), '404': notFound, '409': nameTaken, ...bodyErrors, ...bearerErrors },
    },
    delete: {
      tags: ['heroes'],
      summary: 'Delete a hero',
      security: write,
      responses: { '204': { description: 'Deleted' }, '400': badId, '404': notFound, ...bearerErrors },
    },
  },
  '/health/live': {
    get: { tags: ['operations'], summary: 'Liveness probe', responses: { '200': json('Liveness', 'The process runs') } },
  },
  '/health/ready': {
    get: {
      tags: ['operations'],
      summary: 'Readiness probe',
      description: 'Checks the database, the revocation feed and the authorization server.',
      responses: { '200': json('Readiness', 'Ready'), '503': json('Readiness', 'A check failed, or the server is draining') },
    },
  },
  '/metrics': {
    get: {
      tags: ['operations'],
      summary: 'Prometheus metrics',
      description: 'For loopback peers and METRICS_ALLOW networks only; a request a proxy forwarded only when METRICS_ALLOW admits its original client.',
      responses: { '200': { description: 'Prometheus text format', content: { 'text/plain': { schema: { type: 'string' } } } }, '403': error('Peer not allowed', { error: 'metrics are served to loopback and METRICS_ALLOW networks only' }) },
    },
  },
  '/openapi.json': {
    get: { tags: ['operations'], summary: 'This document', responses: { '200': { description: 'OpenAPI 3.1', content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'paths'] } } } } } },
  },
  '/docs': {
    get: {
      tags: ['operations'],
      summary: 'This document as a web page',
      description: '"Authorize" signs in with the built-in public client `tour-of-heroes` (authorization code with PKCE), or takes a bearer token as is.',
      responses: { '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, '302': toPublicBaseUrl },
    },
  },
  '/': {
    get: {
      tags: ['operations'],
      summary: 'Home page',
      description: 'Links the web app (/app), the API docs (/docs) and this document.',
      responses: { '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
  },
  '/favicon.ico': {
    get: { tags: ['operations'], summary: 'The site icon (SVG)', responses: { '200': { description: 'SVG image', content: { 'image/svg+xml': { schema: { type: 'string' } } } } } },
  },
  '/app': {
    get: {
      tags: ['operations'],
      summary: 'The Tour of Heroes web app',
      description: 'Every /app/... path answers the app\'s page; the app signs in through /auth/code with PKCE.',
      responses: { '200': { description: 'HTML', content: { 'text/html': { schema: { type: 'string' } } } }, '302': toPublicBaseUrl, '503': error('The web app is not built', { error: 'the web app is not built: run npm run build --workspace=@heroes/web-app' }) },
    },
  },
};
