/**
 * The OpenAPI 3.1 description of every route at the public base URL, the edge's own and the authorization server's
 * reached through it; served at GET /openapi.json, rendered at GET /docs. docs/heroes-api.md and docs/oauth.md say
 * the same in prose.
 */
import { HEROES, HEROES_READ, HEROES_WRITE } from '@heroes/oauth-scopes';
import { SCHEMAS } from './schemas.ts';
import { AUTH_PATHS } from './auth-paths.ts';
import { EDGE_PATHS } from './edge-paths.ts';

export const HERO_SCOPES = {
  [HEROES]: `read and change heroes (grants ${HEROES_READ} and ${HEROES_WRITE})`,
  [HEROES_READ]: 'read heroes',
  [HEROES_WRITE]: 'create, rename and delete heroes',
};

export function createOpenApiDocument(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Heroes',
      version: '0.1.0',
      summary: 'The hero API of the Tour of Heroes, with its own OAuth 2.0 authorization server.',
      description:
        'Register a user, get a bearer token from `/auth/token` (password grant, or the authorization-code flow with PKCE for browser and native apps), then call `/heroes` with `Authorization: Bearer <token>`. ' +
        'Every error body is JSON with an `error` member. On every route, a request with a second Host, Content-Length, Content-Type or Authorization header is answered 400 (`repeated <Name> header`) before it is routed. Browser apps on other origins may call `/heroes` and `/register`; the token, revoke and introspect endpoints answer a page only from its client\'s allowed origins.',
    },
    servers: [{ url: '/', description: 'this server' }],
    tags: [
      { name: 'heroes', description: 'The hero collection (bearer token)' },
      { name: 'users', description: 'Registration' },
      { name: 'oauth', description: 'The authorization server (RFC 6749, 7009, 7636, 7662, 8414, 9207)' },
      { name: 'operations', description: 'Probes, metrics, documentation and the web app' },
    ],
    paths: { ...EDGE_PATHS, ...AUTH_PATHS },
    components: {
      schemas: SCHEMAS,
      securitySchemes: {
        oauth2: {
          type: 'oauth2',
          description:
            'Bearer access tokens from this server (RFC 6750). A token grants exactly the scopes it records: `heroes:read` to read heroes, `heroes:write` to change them (`heroes` grants both); `openid` grants no hero access. ' +
            'On this page, "Authorize" signs you in with the built-in public client `tour-of-heroes` (authorization code with PKCE; leave the secret empty).',
          flows: {
            authorizationCode: { authorizationUrl: '/auth/code', tokenUrl: '/auth/token', refreshUrl: '/auth/token', scopes: HERO_SCOPES },
            password: { tokenUrl: '/auth/token', refreshUrl: '/auth/token', scopes: HERO_SCOPES },
            clientCredentials: { tokenUrl: '/auth/token', scopes: HERO_SCOPES },
          },
        },
        bearerToken: { type: 'http', scheme: 'bearer', description: 'An access token you already have (e.g. from `POST /auth/token`), sent as `Authorization: Bearer <token>`.' },
        dpop: {
          type: 'http',
          scheme: 'DPoP',
          description:
            'A DPoP-bound access token (RFC 9449; from `POST /auth/token` with a `DPoP` proof) as `Authorization: DPoP <token>`, with a `DPoP` header: a new proof per request signed by the token\'s key, `htm` the method, `htu` the URL at the public base URL, `iat` within DPOP_PROOF_WINDOW_SECONDS, `ath` the token\'s SHA-256. Each proof is accepted once (docs/oauth.md).',
        },
        clientBasic: { type: 'http', scheme: 'basic', description: 'A confidential client: client id and secret (RFC 6749 section 2.3.1).' },
      },
    },
  };
}
