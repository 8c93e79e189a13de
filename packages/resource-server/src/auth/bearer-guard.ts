/**
 * Middleware: the request must carry a valid bearer access token.
 * - rules and answers: see challenges.ts and parse-bearer-header.ts.
 * - more than one Authorization header → 400 invalid_request, counted in
 *   the raw headers (Node's `req.headers` keeps only the first copy).
 * - the token is checked by introspection (cached, see cached-introspector.ts).
 * - on success `ctx.state.auth` holds the TokenInfo for later steps.
 */
import type { Middleware } from 'koa';
import type { CachedIntrospector } from './cached-introspector.ts';
import { authServerUnavailable, duplicateAuthorization, invalidToken, malformedHeader, missingCredentials } from './challenges.ts';
import { IntrospectionUnavailableError } from './introspect-token.ts';
import { MalformedAuthorizationError, parseBearerHeader } from './parse-bearer-header.ts';
import type { TokenInfo } from './token-info.ts';

export interface AuthState {
  auth: TokenInfo;
}

/**
 * Usage:
 *   router.all('/heroes', createBearerGuard(introspector, 'heroes'), ...steps);
 */
export function createBearerGuard(introspector: CachedIntrospector, realm: string): Middleware {
  return async function bearerGuard(ctx, next) {
    if (countAuthorizationHeaders(ctx.req.rawHeaders) > 1) throw duplicateAuthorization(realm);
    let token: string | undefined;
    try {
      token = parseBearerHeader(ctx.headers.authorization);
    } catch (err) {
      if (err instanceof MalformedAuthorizationError) throw malformedHeader(realm);
      throw err;
    }
    if (token === undefined) throw missingCredentials(realm);
    let info: TokenInfo;
    try {
      info = await introspector.lookup(token);
    } catch (err) {
      if (err instanceof IntrospectionUnavailableError) throw authServerUnavailable(err);
      throw err;
    }
    if (!info.active) throw invalidToken(realm);
    (ctx.state as AuthState).auth = info;
    await next();
  };
}

/** rawHeaders alternates names and values: [name, value, name, value, ...]. */
function countAuthorizationHeaders(rawHeaders: string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === 'authorization') count++;
  }
  return count;
}
