/**
 * Middleware: a valid access token, Bearer (RFC 6750) or DPoP-bound with a proof (RFC 9449); answers in
 * challenges.ts. The token is introspected (cached-introspector.ts), its audience must include this resource
 * (RFC 8707). A bound token (`cnf.jkt`) only as `DPoP` with one proof that passes dpop-proof.ts, signed by that key,
 * never seen by any replica (dpop-replay.ts); an unbound one only as Bearer (section 7.2). Sets `ctx.state.auth`.
 */
import type { Context, Middleware } from 'koa';
import { audienceIncludes } from '@heroes/oauth-scopes';
import type { CachedIntrospector } from './cached-introspector.ts';
import {
  authServerUnavailable,
  duplicateAuthorization,
  invalidDpopProof,
  invalidDpopToken,
  invalidToken,
  malformedHeader,
  missingCredentials,
  wrongAudience,
} from './challenges.ts';
import { DpopProofError, verifyDpopProof } from './dpop-proof.ts';
import type { ReplayCheck } from './dpop-replay.ts';
import type { ProtectedResource } from './protected-resource.ts';
import { IntrospectionUnavailableError } from './introspect-token.ts';
import { MalformedAuthorizationError, parseAccessTokenHeader, type AccessTokenCredentials } from './parse-bearer-header.ts';
import type { TokenInfo } from './token-info.ts';

export interface AuthState {
  auth: TokenInfo;
}

export interface DpopCheckOptions {
  replay: ReplayCheck;
  /** PUBLIC_BASE_URL: a proof's `htu` names the URL clients call. */
  publicBaseUrl: string;
  /** A proof's `iat` may be this far from now, either way (DPOP_PROOF_WINDOW_SECONDS). */
  windowSeconds: number;
}

/**
 * Usage:
 *   router.all('/heroes', createBearerGuard(introspector, describeProtectedResource(publicBaseUrl, 'heroes'), { replay, publicBaseUrl, windowSeconds: 60 }), ...steps);
 */
export function createBearerGuard(introspector: CachedIntrospector, resource: ProtectedResource, dpop: DpopCheckOptions): Middleware {
  const base = dpop.publicBaseUrl.replace(/\/+$/, '');
  return async function bearerGuard(ctx, next) {
    if (countHeaders(ctx.req.rawHeaders, 'authorization') > 1) throw duplicateAuthorization(resource);
    let credentials: AccessTokenCredentials | undefined;
    try {
      credentials = parseAccessTokenHeader(ctx.headers.authorization);
    } catch (err) {
      if (err instanceof MalformedAuthorizationError) throw malformedHeader(resource);
      throw err;
    }
    if (credentials === undefined) throw missingCredentials(resource);
    let info: TokenInfo;
    try {
      info = await introspector.lookup(credentials.token);
    } catch (err) {
      if (err instanceof IntrospectionUnavailableError) throw authServerUnavailable(err);
      throw err;
    }
    if (credentials.scheme === 'bearer') {
      if (!info.active) throw invalidToken(resource);
      if (!audienceIncludes(info.audience, resource.identifier)) throw wrongAudience(resource);
      if (info.jkt !== undefined) throw invalidDpopToken(resource, 'this access token is DPoP-bound: send it as Authorization: DPoP with a DPoP proof');
    } else {
      if (!info.active) throw invalidDpopToken(resource, 'the access token is invalid, expired or revoked');
      if (!audienceIncludes(info.audience, resource.identifier)) throw invalidDpopToken(resource, 'the access token is not meant for this resource');
      if (info.jkt === undefined) throw invalidDpopToken(resource, 'this access token is not DPoP-bound: send it as Authorization: Bearer');
      await checkProof(ctx, credentials.token, info.jkt);
    }
    (ctx.state as AuthState).auth = info;
    await next();
  };

  async function checkProof(ctx: Context, token: string, jkt: string): Promise<void> {
    const count = countHeaders(ctx.req.rawHeaders, 'dpop');
    if (count !== 1) throw invalidDpopProof(resource, count === 0 ? 'a DPoP proof header is required with a DPoP-bound token' : 'send exactly one DPoP header');
    let proof;
    try {
      proof = await verifyDpopProof(ctx.get('dpop'), { method: ctx.method, url: `${base}${ctx.path}`, accessToken: token, windowSeconds: dpop.windowSeconds });
    } catch (err) {
      if (err instanceof DpopProofError) throw invalidDpopProof(resource, err.message);
      throw err;
    }
    if (proof.jkt !== jkt) throw invalidDpopProof(resource, 'the DPoP proof is signed by another key than the one the token is bound to');
    const expiresAtMs = (proof.iat + dpop.windowSeconds + 1) * 1000;
    const acceptableFromMs = (proof.iat - dpop.windowSeconds) * 1000;
    if (!(await dpop.replay.firstUse(proof.jkt, proof.jti, expiresAtMs, acceptableFromMs))) throw invalidDpopProof(resource, 'this DPoP proof was already used');
  }
}

/** rawHeaders alternates names and values: [name, value, name, value, ...]. */
function countHeaders(rawHeaders: string[], name: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]?.toLowerCase() === name) count++;
  }
  return count;
}
