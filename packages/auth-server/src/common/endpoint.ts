/**
 * An endpoint of the authorization server: its path and its steps in order (outermost first, as oidc-provider's
 * `lib/actions/*.js` list theirs). A step that looks at the answer on its way out sees it after every step below it:
 * of two such steps, the one listed first touches the answer last.
 */
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { nameRoute } from '@heroes/platform';

export interface Endpoint {
  /** The exact path (the library's routes have no trailing-slash or case variants). */
  path: string;
  steps: readonly Middleware[];
}

/**
 * Runs the endpoint whose path is exactly the request's; any other request
 * goes on unchanged.
 *
 * Usage: `app.use(mountEndpoints([tokenEndpoint(deps), revocationEndpoint(deps)]))`
 */
export function mountEndpoints(endpoints: readonly Endpoint[]): Middleware {
  const chains = new Map<string, Middleware>();
  for (const { path, steps } of endpoints) {
    if (chains.has(path)) throw new Error(`two endpoints at ${path}`);
    chains.set(path, compose([...steps]));
  }
  return function toEndpoint(ctx, next) {
    const chain = chains.get(ctx.path);
    if (!chain) return next();
    nameRoute(ctx, ctx.path); // one of the paths above: the request span's route
    return chain(ctx, next);
  };
}
