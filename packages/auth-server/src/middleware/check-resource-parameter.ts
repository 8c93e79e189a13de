/**
 * Resource indicators (RFC 8707 section 2) at POST /auth/token, whatever
 * the grant: each `resource` value must name the hero API, the one
 * protected resource this server issues tokens for (its identifier:
 * @heroes/oauth-scopes resource-indicator.ts) → else 400 invalid_target,
 * before client authentication, any database read or password check.
 *
 * The tokens then carry that audience (provider/access-token-audience.ts),
 * as do those of requests without `resource`. A refresh may name it again
 * (RFC 8707 section 2.2: it may narrow, never widen): with one resource
 * there is nothing wider to ask for.
 */
import type { Middleware } from 'koa';
import { isSameResource } from '@heroes/oauth-scopes';
import { OAuthError } from './oauth-error.ts';
import { providerForm } from '../provider/library-seams.ts';

/** Usage: `createResourceParameterCheck(resourceIdentifier(publicBaseUrl))` */
export function createResourceParameterCheck(resource: string): Middleware {
  return async function checkResourceParameter(ctx, next) {
    const value = providerForm(ctx.req)?.['resource'];
    const values = value === undefined ? [] : typeof value === 'string' ? [value] : value;
    if (values.some((one) => typeof one !== 'string' || !isSameResource(one, resource))) {
      throw new OAuthError(400, 'invalid_target', `unknown resource: this server issues tokens for ${resource} only`);
    }
    return next();
  };
}
