/**
 * The authorization server: oidc-provider mounted in our Koa app, storing
 * everything in PostgreSQL.
 *
 * Middleware, outermost first:
 *   http-kit (request log line, gzip, error mapping, response encoding)
 *   → CORS on our own error answers at token/revoke/introspect
 *   → server metadata rewrite → token response touches →
 *   grant type not allowed → unauthorized_client → 404 for anything
 *   unanswered → 405 for other methods on the provider's paths →
 *   database outages at the provider's paths → 503 →
 *   form bodies of the provider's endpoints read through http-kit →
 *   scope parameter syntax and limits at the token endpoint →
 *   client-auth normalization → public clients refused at introspection →
 *   redirect_uri of a code exchange → refresh to a sub-scope →
 *   old access tokens revoked on refresh → introspection fast path (a
 *   remembered caller and a live access token: one query, the provider's
 *   answer)
 *   → /auth/code routes (405 for other methods)
 *   → oidc-provider (its paths only)
 *
 * Usage:
 *   const server = await createAuthServer({ databaseUrl });
 *   const { url, close } = await server.listen(0);
 */
import Koa from 'koa';
import mount from 'koa-mount';
import type Provider from 'oidc-provider';
import { createDb, poolStats, type PrismaClient } from '@heroes/db';
import {
  BoundedQueue,
  createHealth,
  createHttpKit,
  createLogger,
  createRequestId,
  noSniff,
  NotFoundError,
  serve,
  type Health,
  type Logger,
} from '@heroes/http-kit';
import { createServerMetrics } from './metrics/server-metrics.ts';
import { reportPasswordHashQueue } from './metrics/password-hash-queue.ts';
import { createUserAuthenticator } from './accounts/authenticate-user.ts';
import { createFindAccount } from './accounts/find-account.ts';
import { createAdapterFactory } from './adapter/create-adapter.ts';
import { startPurgeTimer } from './adapter/purge-expired.ts';
import { createCodeRouter } from './code/code-routes.ts';
import { DEFAULTS } from './config/defaults.ts';
import { loadOrCreateKeys, type ProviderKeys } from './config/keys.ts';
import { defaultKeysFile, type AuthServerConfig } from './config/load-config.ts';
import { registerPasswordGrant } from './grants/password-grant.ts';
import { createCorsOnErrors } from './middleware/cors-on-errors.ts';
import { createDatabaseOutageMapper } from './middleware/database-outage.ts';
import { createFastIntrospection } from './middleware/fast-introspection.ts';
import { createIntrospectionGuard } from './middleware/introspection-guard.ts';
import { createMethodGuard } from './middleware/method-guard.ts';
import { createClientAuthNormalizer } from './middleware/normalize-client-auth.ts';
import { createMetadataRewriter } from './middleware/public-metadata.ts';
import { createProviderFormReader } from './middleware/read-provider-form.ts';
import { createCodeRedirectUriCheck } from './middleware/require-code-redirect-uri.ts';
import { createRevokeOnRefresh } from './middleware/revoke-on-refresh.ts';
import { createForwardingFilter } from './middleware/trust-forwarded.ts';
import { createTokenResponseFixer } from './middleware/token-response.ts';
import { createUnauthorizedClientMapper } from './middleware/unauthorized-client.ts';
import { createRevocationNotifier } from './notify/revocation-notifier.ts';
import { installAccessTokenScope } from './provider/access-token-scope.ts';
import { installCodeRedirectUriMarker } from './provider/code-redirect-uri.ts';
import { createRefreshSubScope } from './provider/refresh-sub-scope.ts';
import { createProvider } from './provider/create-provider.ts';
import { silenceParsedBodyWarning } from './provider/hand-form-to-provider.ts';
import { PROVIDER_PATHS } from './provider/routes.ts';
import { createScopeCatalogue } from './scopes/scope-catalogue.ts';
import { createScopeParameterCheck } from './middleware/check-scope-parameter.ts';
import { installSecretVerifier } from './secrets/install-secret-verifier.ts';
import { rememberClientAddress } from './throttle/client-address.ts';
import { createLoginThrottle } from './throttle/login-throttle.ts';
import { createThrottledAuthenticator } from './throttle/throttled-authenticator.ts';
import { createSecretVerifier } from './secrets/secret-cache.ts';

export interface AuthServerOptions extends Partial<AuthServerConfig> {
  databaseUrl: string;
  /** Keys to use instead of reading/creating `keysFile`. */
  keys?: ProviderKeys;
  /** Logger for request lines and errors. Default: createLogger('auth-server'). */
  logger?: Logger;
  /**
   * The introspection fast path (middleware/fast-introspection.ts). Default
   * true; false leaves every introspection to the provider (the fast path's
   * test compares both answers).
   */
  fastIntrospection?: boolean;
}

export interface ListeningServer {
  /** Base URL of the listening socket, e.g. http://127.0.0.1:8889 */
  url: string;
  port: number;
  close(): Promise<void>;
}

export interface AuthServer {
  app: Koa;
  provider: Provider;
  db: PrismaClient;
  config: AuthServerConfig;
  /** GET /health/live and /health/ready (see http-kit's createHealth). */
  health: Health;
  /** Listens on `port` (default config.port; 0 = ephemeral) and config.host. */
  listen(port?: number): Promise<ListeningServer>;
  /**
   * Drains: /health/ready answers 503, in-flight requests finish (up to
   * SHUTDOWN_TIMEOUT_MS) while new connections are refused; then the purge
   * timer and the database pool are closed.
   */
  close(): Promise<void>;
}

export function resolveConfig(options: AuthServerOptions): AuthServerConfig {
  const { keys: _keys, logger: _logger, fastIntrospection: _fast, ...overrides } = options;
  const { logLevel: _logLevel, ...defaults } = DEFAULTS;
  return { ...defaults, metricsAllow: [], trustedProxies: [], keysFile: defaultKeysFile(), ...overrides };
}

export async function createAuthServer(options: AuthServerOptions): Promise<AuthServer> {
  const config = resolveConfig(options);
  const logger = options.logger ?? createLogger('auth-server');
  const keys = options.keys ?? loadOrCreateKeys(config.keysFile);
  const db = createDb(config.databaseUrl, { maxConnections: config.databasePoolSize, connectionTimeoutMs: config.dbConnectTimeoutMs });

  const notify = createRevocationNotifier(db, logger);
  const provider = createProvider({
    config,
    keys,
    adapter: createAdapterFactory({
      db,
      notify,
      introspectionOnlyClientId: config.resourceServerClientId,
    }),
    findAccount: createFindAccount(db),
  });
  installAccessTokenScope(provider);
  installCodeRedirectUriMarker(provider);
  await silenceParsedBodyWarning();
  const secrets = createSecretVerifier({ max: config.secretCacheMax, ttlMs: config.secretCacheTtlMs });
  installSecretVerifier(provider, secrets);
  // Every password check waits in a bounded queue; beyond it, 503 at once (grants/password-grant.ts, code/code-routes.ts).
  const hashQueue = new BoundedQueue({ concurrency: config.passwordHashConcurrency, maxQueued: config.passwordHashQueueMax });
  reportPasswordHashQueue(() => hashQueue.queued);
  const authenticate = createThrottledAuthenticator(createUserAuthenticator(db, config.bcryptCost, hashQueue), createLoginThrottle(db, {
    accountFailures: config.loginAccountFailures,
    backoffMs: config.loginBackoffMs,
    backoffMaxMs: config.loginBackoffMaxMs,
    addressFailures: config.loginAddressFailures,
    addressWindowMs: config.loginAddressWindowMs,
  }));
  registerPasswordGrant(provider, { authenticate, accessTokenTtl: config.accessTokenTtl });
  provider.on('server_error', (_ctx: unknown, err: unknown) => logger.error({ err }, 'oidc-provider server error'));

  const app = new Koa({ proxy: true, keys: keys.cookieKeys });
  const codeRouter = createCodeRouter({
    db,
    provider,
    authenticate,
    issuer: config.publicBaseUrl,
    authCodeTtl: config.authCodeTtl,
    introspectionOnlyClientId: config.resourceServerClientId,
  });
  const providerMiddleware = mount(provider);
  // A request id first (on every log line of the request), then the probes
  // (no body, no request log line, not counted), then metrics.
  const health = createHealth({ checks: { database: () => db.$queryRaw`SELECT 1` } });
  const metrics = createServerMetrics({ allow: config.metricsAllow, db });
  app.use(noSniff);
  app.use(createRequestId());
  app.use(rememberClientAddress);
  app.use(health.middleware);
  app.use(metrics.middleware);
  app.use(createHttpKit({ logger, maxBodyBytes: config.maxBodyBytes }).middleware);
  app.use(createCorsOnErrors(db));
  app.use(createMetadataRewriter(config.publicBaseUrl, createScopeCatalogue(db, config.resourceServerClientId)));
  app.use(createTokenResponseFixer());
  app.use(createUnauthorizedClientMapper());
  app.use(async function notFound(ctx, next) {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) throw new NotFoundError();
  });
  app.use(createMethodGuard());
  app.use(createDatabaseOutageMapper(provider, PROVIDER_PATHS));
  app.use(createProviderFormReader());
  app.use(createScopeParameterCheck());
  app.use(createClientAuthNormalizer(config.publicBaseUrl));
  app.use(createIntrospectionGuard());
  app.use(createCodeRedirectUriCheck(provider));
  app.use(createRefreshSubScope(provider));
  app.use(createRevokeOnRefresh(db, notify));
  if (options.fastIntrospection !== false) {
    app.use(createFastIntrospection({ db, issuer: provider.issuer, resourceServerClientId: config.resourceServerClientId, secrets }));
  }
  app.use(codeRouter.routes());
  app.use(async function toProvider(ctx, next) {
    return PROVIDER_PATHS.has(ctx.path) ? providerMiddleware(ctx, next) : next();
  });

  const stopPurge = startPurgeTimer(db, config.purgeIntervalMs, logger);
  const listening = new Set<ListeningServer>();

  return {
    app,
    provider,
    db,
    config,
    health,
    async listen(port = config.port) {
      // Timeouts, JSON answers to malformed requests, 413 before 100-continue.
      const handler = app.callback();
      const filter = createForwardingFilter(config.trustedProxies);
      // X-Forwarded-* only from the edge (middleware/trust-forwarded.ts).
      const serving = await serve((req, res) => {
        filter(req);
        return handler(req, res);
      }, {
        port,
        host: config.host,
        shutdownTimeoutMs: config.shutdownTimeoutMs,
        maxBodyBytes: config.maxBodyBytes,
        logger,
      });
      const handle: ListeningServer = {
        url: serving.url,
        port: serving.port,
        close: async () => {
          listening.delete(handle);
          await serving.close();
        },
      };
      listening.add(handle);
      return handle;
    },
    async close() {
      health.markDraining();
      stopPurge();
      await Promise.all([...listening].map((handle) => handle.close()));
      await db.$disconnect();
    },
  };
}
