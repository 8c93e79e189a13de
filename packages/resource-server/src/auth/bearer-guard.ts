/**
 * Middleware: the request must carry a valid bearer access token.
 * - rules and answers: see challenges.ts and parse-bearer-header.ts.
 * - more than one Authorization header → 400 invalid_request, counted in
 *   the raw headers (Node's `req.headers` keeps only the first copy).
 * - the token is checked by introspection (cached, see cached-introspector.ts);
 *   its audience must include this resource's identifier (RFC 8707,
 *   protected-resource.ts), else 401 invalid_token.
 * - on success `ctx.state.auth` holds the TokenInfo for later steps.
 */
import type { Middleware } from 'koa';
import type { CachedIntrospector } from './cached-introspector.ts';
import { audienceIncludes } from '@heroes/oauth-scopes';
import { authServerUnavailable, duplicateAuthorization, invalidToken, malformedHeader, missingCredentials, wrongAudience } from './challenges.ts';
import type { ProtectedResource } from './protected-resource.ts';
import { IntrospectionUnavailableError } from './introspect-token.ts';
import { MalformedAuthorizationError, parseBearerHeader } from './parse-bearer-header.ts';
import type { TokenInfo } from './token-info.ts';

export interface AuthState {
  auth: TokenInfo;
}

/**
 * Usage:
 *   router.all('/heroes', createBearerGuard(introspector, describeProtectedResource(publicBaseUrl, 'heroes')), ...steps);
 */
export function createBearerGuard(introspector: CachedIntrospector, resource: ProtectedResource): Middleware {
  return async function bearerGuard(ctx, next) {
    if (countAuthorizationHeaders(ctx.req.rawHeaders) > 1) throw duplicateAuthorization(resource);
    let token: string | undefined;
    try {
      token = parseBearerHeader(ctx.headers.authorization);
    } catch (err) {
      if (err instanceof MalformedAuthorizationError) throw malformedHeader(resource);
      throw err;
    }
    if (token === undefined) throw missingCredentials(resource);
    let info: TokenInfo;
    try {
      info = await introspector.lookup(token);
    } catch (err) {
      if (err instanceof IntrospectionUnavailableError) throw authServerUnavailable(err);
      throw err;
    }
    if (!info.active) throw invalidToken(resource);
    if (!audienceIncludes(info.audience, resource.identifier)) throw wrongAudience(resource);
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
