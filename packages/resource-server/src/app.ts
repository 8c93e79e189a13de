/**
 * The Koa app of the public edge as a table of layers, outermost first: the request's span (while tracing), client
 * address, nosniff, request id, health, metrics; the /auth and /.well-known forwarder (untouched by http-kit); CORS;
 * http-kit; the routes (protected-resource metadata, /register, /heroes, /openapi.json, /docs, /app, /); else 404.
 * createAppLayers names each layer (APP_LAYERS); `npm run bench`'s layer table composes its own selection.
 */
import Koa, { type Middleware } from 'koa';
import Router from '@koa/router';
import { answerDatabaseFailures, createHttpKit, noSniff, NotFoundError } from '@heroes/http-kit';
import { classifyDatabaseError } from '@heroes/db/database-errors';
import { createClientAddress, createRequestId, createRequestLogger, isTracing, traceRequests, type BoundedQueue, type Health, type Metrics } from '@heroes/platform';
import type { Logger } from 'pino';
import { createCors } from './cors/create-cors.ts';
import { createBearerGuard } from './auth/bearer-guard.ts';
import { createReplayCheck } from './auth/dpop-replay.ts';
import { describeProtectedResource } from './auth/protected-resource.ts';
import { mountProtectedResourceMetadata } from './routes/protected-resource-metadata.ts';
import type { CachedIntrospector } from './auth/cached-introspector.ts';
import type { ResourceServerConfig } from './config/resource-server-config.ts';
import type { Database } from './data/create-pool.ts';
import type { HeroRepository } from '@heroes/db/pg';
import type { HeroListCache } from './data/hero-list-cache.ts';
import type { AuthForwarder } from './proxy/forward-to-auth-server.ts';
import { mountHeroRoutes } from './routes/heroes/heroes-routes.ts';
import { limitHeroWrites } from './routes/heroes/write-limit.ts';
import { createDocsAssets, mountDocsRoutes } from './routes/docs/docs-routes.ts';
import { createAppRoute } from './routes/app/app-route.ts';
import { isSignInPage, redirectToPublicOrigin } from './routes/public-origin.ts';
import { createOnce } from './routes/idempotency/create-once.ts';
import { mountRegisterRoute } from './routes/register/register-route.ts';
import { mountHomeRoutes } from './routes/home/home-route.ts';
import type { AppLayer } from './app-layers.ts';

export interface AppDeps {
  config: ResourceServerConfig;
  /** The pg pool (registration). */
  db: Database;
  heroes: HeroRepository;
  /** The whole list's cache; `heroes` must invalidate it on writes. */
  listCache?: HeroListCache;
  introspector: CachedIntrospector;
  forwarder: AuthForwarder;
  health: Health;
  metrics: Metrics;
  logger: Logger;
  /** The bounded queue every bcrypt hash of /register goes through. */
  hashQueue: BoundedQueue;
}

/** The app's layers, outermost first; the named ones (APP_LAYERS) are those the bench's layer table prices. */
export type AppLayers = ReadonlyArray<readonly [name: AppLayer | string, layer: Middleware]>;

export function createAppLayers({ config, db, heroes, listCache, introspector, forwarder, health, metrics, logger, hashQueue }: AppDeps): AppLayers {
  const router = new Router();
  const resource = describeProtectedResource(config.publicBaseUrl, config.realm);
  mountProtectedResourceMetadata(router, { resource, issuer: config.publicBaseUrl, scopes: [config.heroesReadScope, config.heroesWriteScope] });
  const once = createOnce({ db, clientSecret: config.clientSecret, keepHours: config.idempotencyKeyHours });
  mountRegisterRoute(router, { db, hashQueue, logger, once, ...config });
  mountHeroRoutes(router, {
    heroes,
    once,
    listCache,
    bearerGuard: createBearerGuard(introspector, resource, {
      replay: createReplayCheck(db),
      publicBaseUrl: config.publicBaseUrl,
      windowSeconds: config.dpopProofWindowSeconds,
    }),
    limitWrites: limitHeroWrites(db, config),
    maxNameLength: config.maxHeroNameLength,
    readScope: config.heroesReadScope,
    writeScope: config.heroesWriteScope,
    resource,
  });
  mountDocsRoutes(router, { publicBaseUrl: config.publicBaseUrl });
  mountHomeRoutes(router);
  return [
    // The request's span, only while tracing (docs/operations.md, "Tracing"): first, so every layer runs inside it.
    ...(isTracing() ? [['trace-requests', traceRequests()] as const] : []),
    ['client-address', createClientAddress(config.trustProxy)],
    ['nosniff', noSniff],
    ['request-id', createRequestId()],
    ['health', health.middleware],
    ['metrics', metrics.middleware],
    ['forwarder', forwarder.middleware],
    ['cors', createCors(config.corsOrigins)],
    ['log', createRequestLogger(logger)],
    ['http-kit', createHttpKit({ maxBodyBytes: config.maxBodyBytes, logger, translateError: answerDatabaseFailures(classifyDatabaseError) }).middleware],
    // /app and /docs sign users in: only at PUBLIC_BASE_URL, where their redirect URIs are.
    ['public-origin', redirectToPublicOrigin(config.publicBaseUrl, isSignInPage)],
    ['routes', router.routes() as Middleware],
    ['docs-assets', createDocsAssets()],
    ['web-app', createAppRoute()],
    ['not-found', notFound],
  ];
}

/** The Koa app of `layers` (default: every layer of createAppLayers). */
export function createApp(deps: AppDeps, layers: AppLayers = createAppLayers(deps)): Koa {
  const app = new Koa();
  // ctx.protocol and ctx.host from the proxy's X-Forwarded-Proto/Host only when one is trusted; ctx.ip is set by createClientAddress.
  app.proxy = deps.config.trustProxy.kind !== 'none';
  app.silent = true;
  for (const [, layer] of layers) app.use(layer);
  return app;
}

const notFound: Middleware = async function notFound() {
  throw new NotFoundError();
};
