/**
 * The scopes this service itself knows.
 *
 * - HERO_SCOPES: what the hero routes require (`heroes:read` for GET,
 *   `heroes:write` for POST, PUT and DELETE). A client registered without
 *   allowed scopes is allowed exactly these, so every token states its
 *   authority and a token without them cannot touch heroes.
 * - OPENID: asks for an ID token (OpenID Connect Core 3.1.2.1); it is never
 *   a permission at the resource server.
 */
export const HEROES_READ = 'heroes:read';
export const HEROES_WRITE = 'heroes:write';
export const HERO_SCOPES: readonly string[] = Object.freeze([HEROES_READ, HEROES_WRITE]);
export const OPENID = 'openid';
