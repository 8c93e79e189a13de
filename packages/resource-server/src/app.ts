/**
 * The Koa app of the public edge as a table of layers, outermost first: the request's span (while tracing), client
 * address, nosniff, request id, health, metrics; the /auth and /.well-known forwarder (untouched by http-kit); CORS;
 * http-kit; the routes (protected-resource metadata, /register, /heroes, /openapi.json, /docs, /app, /); else 404.
 * `config.skipLayers` (test-only: the bench's layer table) leaves named APP_LAYERS out.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { createHttpKit, noSniff, NotFoundError } from '@heroes/http-kit';
import { createClientAddress, createRequestId, createRequestLogger, isTracing, traceRequests, type BoundedQueue, type Health, type Metrics } from '@heroes/platform';
import { mapDatabaseError } from './data/database-answers.ts';
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

export function createApp({ config, db, heroes, listCache, introspector, forwarder, health, metrics, logger, hashQueue }: AppDeps): Koa {
  const app = new Koa();
  // ctx.protocol and ctx.host from the proxy's X-Forwarded-Proto/Host only when one is trusted; ctx.ip is set by createClientAddress.
  app.proxy = config.trustProxy.kind !== 'none';
  app.silent = true;

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

  const on = (layer: AppLayer) => !config.skipLayers?.includes(layer);
  // The request's span, only while tracing (docs/operations.md, "Tracing"): first, so every layer runs inside it.
  if (isTracing()) app.use(traceRequests());
  app.use(createClientAddress(config.trustProxy));
  if (on('nosniff')) app.use(noSniff);
  if (on('request-id')) app.use(createRequestId());
  if (on('health')) app.use(health.middleware);
  if (on('metrics')) app.use(metrics.middleware);
  if (on('forwarder')) app.use(forwarder.middleware);
  if (on('cors')) app.use(createCors(config.corsOrigins));
  if (on('log')) app.use(createRequestLogger(logger));
  const skip = { compression: !on('compression') };
  app.use(createHttpKit({ maxBodyBytes: config.maxBodyBytes, logger, skip, translateError: mapDatabaseError }).middleware);
  // /app and /docs sign users in: only at PUBLIC_BASE_URL, where their redirect URIs are.
  app.use(redirectToPublicOrigin(config.publicBaseUrl, isSignInPage));
  mountDocsRoutes(router, { publicBaseUrl: config.publicBaseUrl });
  mountHomeRoutes(router);
  app.use(router.routes());
  app.use(createDocsAssets());
  app.use(createAppRoute());
  app.use(async function notFound() {
    throw new NotFoundError();
  });
  return app;
}
