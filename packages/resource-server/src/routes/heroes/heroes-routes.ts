/**
 * /heroes/[:id]: every method behind the bearer guard, reads need
 * `heroes:read` and writes `heroes:write` (deny by default: a token
 * without them can do neither); creates and updates are counted per user
 * (write-limit.ts).
 */
import type Router from '@koa/router';
import type { Middleware } from 'koa';
import { dispatchByMethod } from '@heroes/http-kit';
import { requireScope } from '../../auth/require-scope.ts';
import type { ProtectedResource } from '../../auth/protected-resource.ts';
import { createHeroSteps, type HeroStepsDeps } from './hero-steps.ts';
import { readHeroId } from './parse-hero-id.ts';

export interface HeroRoutesDeps extends HeroStepsDeps {
  bearerGuard: Middleware;
  /** Counts a create or update (write-limit.ts); 429 past the limit. */
  limitWrites: Middleware;
  readScope: string;
  writeScope: string;
  /** What the challenges of 403 answers name. */
  resource: ProtectedResource;
}

/**
 * Usage:
 *   mountHeroRoutes(router, { heroes, bearerGuard, limitWrites: limitHeroWrites(db, config), maxNameLength: 100, readScope, writeScope, resource });
 */
export function mountHeroRoutes(router: Router, deps: HeroRoutesDeps): void {
  const steps = createHeroSteps(deps);
  const read = requireScope(deps.readScope, deps.resource);
  const write = requireScope(deps.writeScope, deps.resource);

  router.all('/heroes', dispatchByMethod([deps.bearerGuard], {
    GET: [read, steps.listHeroes],
    POST: [write, deps.limitWrites, steps.createHero],
    PUT: [write, deps.limitWrites, steps.updateHeroFromBody],
  }));

  router.all('/heroes/:id', dispatchByMethod([deps.bearerGuard], {
    GET: [read, readHeroId, steps.getHero],
    PUT: [write, deps.limitWrites, readHeroId, steps.updateHero],
    DELETE: [write, readHeroId, steps.deleteHero],
  }));
}
