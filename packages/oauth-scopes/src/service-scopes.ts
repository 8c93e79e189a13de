/**
 * The scopes this service itself knows.
 *
 * - HERO_SCOPES: what the hero routes require (`heroes:read` for GET,
 *   `heroes:write` for POST, PUT and DELETE). A client registered without
 *   allowed scopes is allowed exactly these, so every token states its
 *   authority and a token without them cannot touch heroes.
 * - OPENID: asks for an ID token (OpenID Connect Core 3.1.2.1); it is never
 *   a permission at the resource server: any client may be given it
 *   (mayGrant), and it is not authority (authorityScopes).
 * - isServiceScope: what an operator may register for a client without
 *   saying the scope is unknown on purpose (`auth --allow-unknown-scope`):
 *   `openid`, `heroes`, and `heroes:read`, `heroes:write` with their
 *   sub-scopes (`heroes:read:own`) and modifiers (scope-rule.ts).
 */
import { grantsScope, isGranted } from './scope-rule.ts';

export const HEROES_READ = 'heroes:read';
export const HEROES_WRITE = 'heroes:write';
export const HERO_SCOPES: readonly string[] = Object.freeze([HEROES_READ, HEROES_WRITE]);
export const OPENID = 'openid';
export const HEROES = 'heroes';

/** The scopes the service knows, as an operator reads them in an error message. */
export const SERVICE_SCOPES_DESCRIPTION = `${OPENID}, ${HEROES}, ${HEROES_READ}, ${HEROES_WRITE} and their sub-scopes (such as ${HEROES_READ}:own)`;

/** True for a scope this service knows. Usage: `isServiceScope('heroes:read:own')` → true, `isServiceScope('admin')` → false */
export function isServiceScope(scope: string): boolean {
  return scope === OPENID || scope === HEROES || HERO_SCOPES.some((known) => grantsScope(known, scope));
}

/**
 * A client allowed `allowed` may be given `scope`: `openid` always (it asks for an ID token and is no
 * authority), any other scope when an allowed scope grants it (scope-rule.ts).
 *
 * Usage: `mayGrant(['heroes'], 'heroes:read')` → true, `mayGrant(['heroes:read'], 'openid')` → true
 */
export function mayGrant(allowed: Iterable<string>, scope: string): boolean {
  return scope === OPENID || isGranted(allowed, scope);
}

/** The scopes of a list that are authority: all but `openid`. Usage: `authorityScopes(['openid', 'heroes'])` → ['heroes'] */
export function authorityScopes(scopes: readonly string[]): string[] {
  return scopes.filter((scope) => scope !== OPENID);
}
