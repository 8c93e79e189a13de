/**
 * Resource indicators (RFC 8707 section 2) at POST /auth/token, any grant: each `resource` must name the hero API,
 * else 400 invalid_target before client authentication, any read or password check. Tokens carry that audience with
 * or without it (library/access-token-audience.ts); with one resource a refresh has nothing wider to ask for.
 */
import type { Middleware } from 'koa';
import { isSameResource } from '@heroes/oauth-scopes';
import { OAuthError } from '../../common/oauth-error.ts';
import { requestState } from '../../request-state.ts';

/** Usage: `createResourceParameterCheck(resourceIdentifier(publicBaseUrl))` */
export function createResourceParameterCheck(resource: string): Middleware {
  return async function checkResourceParameter(ctx, next) {
    const value = requestState(ctx).form?.['resource'];
    const values = value === undefined ? [] : typeof value === 'string' ? [value] : value;
    if (values.some((one) => typeof one !== 'string' || !isSameResource(one, resource))) {
      throw new OAuthError(400, 'invalid_target', `unknown resource: this server issues tokens for ${resource} only`);
    }
    return next();
  };
}
