/**
 * The Koa app of the authorization server as a table of layers, outermost first: the request's span (while tracing),
 * client address, nosniff, request id, internal-only probes and metrics, health, metrics, the request log, held
 * refusals, http-kit, 404 for anything unanswered; then each endpoint at its path with its own step table
 * (endpoints/). createAppLayers names each layer; tests and the bench compose their own selection.
 */
import Koa, { type Middleware } from 'koa';
import type Provider from 'oidc-provider';
import type { PrismaClient } from '@heroes/db';
import { classifyDatabaseError } from '@heroes/db/database-errors';
import { answerDatabaseFailures, createHttpKit, noSniff, NotFoundError, type Logger } from '@heroes/http-kit';
import { createClientAddress, createRequestId, createRequestLogger, isTracing, traceRequests, type Health, type Metrics } from '@heroes/platform';
import type { AuthServerConfig } from './config/auth-server-config.ts';
import type { RememberedSecrets } from './clients/secret-cache.ts';
import type { RevocationNotifier } from './notify/revocation-notifier.ts';
import type { ThrottledAuthenticator } from './throttle/throttled-authenticator.ts';
import { holdRefusalsAtEdge } from './throttle/refusal-hold.ts';
import { internalOnly } from './common/internal-only.ts';
import { mountEndpoints } from './common/endpoint.ts';
import { createProviderEndpoints } from './endpoints/provider-endpoints.ts';
import type { IntrospectionAnswer } from './endpoints/introspection/introspection-endpoint.ts';
import { fastIntrospection } from './endpoints/introspection/fast-introspection.ts';
import { createCodeRouter } from './endpoints/code/code-endpoint.ts';

export interface AppDeps {
  config: AuthServerConfig;
  db: PrismaClient;
  provider: Provider;
  /** Koa's keys for signed cookies (the library's interaction cookies). */
  cookieKeys: string[];
  notify: RevocationNotifier;
  /** Client secrets the cache verified (clients/secret-cache.ts). */
  secrets: RememberedSecrets;
  /** A user's password check, throttled and audited (throttle/throttled-authenticator.ts). */
  authenticate: ThrottledAuthenticator;
  health: Health;
  metrics: Metrics;
  logger: Logger;
}

/** The app's layers, outermost first, each named. */
export type AppLayers = ReadonlyArray<readonly [name: string, layer: Middleware]>;

/** Every layer; `introspect` answers an introspection (default: the fast path, then the library). */
export function createAppLayers(deps: AppDeps, introspect: IntrospectionAnswer = fastIntrospection): AppLayers {
  const { config, db, provider, notify, secrets, authenticate, health, metrics, logger } = deps;
  const endpoints = createProviderEndpoints({
    db,
    provider,
    notify,
    publicBaseUrl: config.publicBaseUrl,
    resourceServerClientId: config.resourceServerClientId,
    secrets,
  }, introspect);
  const codeRouter = createCodeRouter({
    db,
    provider,
    authenticate,
    issuer: config.publicBaseUrl,
    authCodeTtl: config.authCodeTtl,
    introspectionOnlyClientId: config.resourceServerClientId,
  });
  return [
    // The request's span, only while tracing (docs/operations.md, "Tracing"): first, so every layer runs inside it.
    ...(isTracing() ? [['trace-requests', traceRequests()] as const] : []),
    // Trusted proxies here: the edge, on loopback or in AUTH_TRUSTED_PROXIES; oidc-provider's code reads ctx.state too.
    ['client-address', createClientAddress({ kind: 'networks', networks: config.trustedProxies })],
    ['nosniff', noSniff],
    // A request id first (on every log line of the request), then the probes (no body, no request log line, not counted).
    ['request-id', createRequestId()],
    ['internal-only', internalOnly(config.metricsAllow)],
    ['health', health.middleware],
    ['metrics', metrics.middleware],
    ['log', createRequestLogger(logger)],
    // A refusal delayed on purpose is held by the edge when it came through it (throttle/refusal-hold.ts).
    ['hold-refusals', holdRefusalsAtEdge],
    ['http-kit', createHttpKit({ logger, maxBodyBytes: config.authMaxBodyBytes, translateError: answerDatabaseFailures(classifyDatabaseError) }).middleware],
    ['not-found', notFound],
    ['endpoints', mountEndpoints(endpoints)],
    ['code', codeRouter.routes() as Middleware],
  ];
}

/** The Koa app of `layers` (default: every layer of createAppLayers). */
export function createApp(deps: AppDeps, layers: AppLayers = createAppLayers(deps)): Koa {
  // X-Forwarded-* reach Koa only from a trusted peer (common/forwarding-filter.ts, at listen).
  const app = new Koa({ proxy: true, keys: deps.cookieKeys });
  for (const [, layer] of layers) app.use(layer);
  return app;
}

const notFound: Middleware = async function notFound(ctx, next) {
  await next();
  if (ctx.status === 404 && ctx.body === undefined) throw new NotFoundError();
};
