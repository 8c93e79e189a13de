/**
 * The scopes this service knows: HERO_SCOPES (`heroes:read` for GET, `heroes:write` for writes; a client
 * registered without scopes gets exactly these); OPENID, which asks for an ID token and is never authority at the
 * resource server; isServiceScope, what an operator may register without `--allow-unknown-scope`.
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
