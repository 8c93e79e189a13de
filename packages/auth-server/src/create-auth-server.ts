/**
 * The authorization server: oidc-provider mounted in our Koa app, storing everything in PostgreSQL. App-wide steps,
 * outermost first: the request's span (while tracing), client address, nosniff, request id, internal-only probes and
 * metrics, health, metrics, the request log, http-kit, 404 for anything unanswered; then each endpoint at its path
 * with its own step table (endpoints/token-, revocation-, introspection-, discovery-, code-endpoint.ts).
 */
import Koa from 'koa';
import type Provider from 'oidc-provider';
import { claimProofIds, createDb, createQueryTimeoutCheck, ping, proofIdKey, sqlPool, type PrismaClient } from '@heroes/db';
import { mapDatabaseError } from './shared/database-answers.ts';
import {
  createHttpKit,
  noSniff,
  NotFoundError,
  QueueFullError,
  type Logger,
} from '@heroes/http-kit';
import {
  BoundedQueue,
  createHealth,
  createLogger,
  createRequestId,
  createRequestLogger,
  isTracing,
  serve,
  traceRequests,
  serveManagement,
  type Health,
} from '@heroes/platform';
import { createAuditTrail } from './audit/audit-trail.ts';
import { createLoginAuditor } from './audit/login-audit.ts';
import { recordKeysRotated } from './audit/keys-audit.ts';
import { followSigningKeys } from './library/signing-keys.ts';
import { createServerMetrics } from './metrics/server-metrics.ts';
import { createUserAuthenticator } from './accounts/authenticate-user.ts';
import { createFindAccount } from './accounts/find-account.ts';
import { createAdapterFactory } from './adapter/create-adapter.ts';
import { startPurgeTimer } from './adapter/purge-expired.ts';
import { createCodeRouter } from './endpoints/code-endpoint.ts';
import { mountEndpoints } from './shared/endpoint.ts';
import { createProviderEndpoints } from './endpoints/provider-endpoints.ts';
import { DEFAULTS } from './config/defaults.ts';
import { loadOrCreateKeys, type ProviderKeys } from './config/keys.ts';
import { defaultKeysFile, type AuthServerConfig } from './config/load-config.ts';
import { registerPasswordGrant } from './library/password-grant.ts';
import { registerClientCredentialsGrant } from './library/client-credentials-grant.ts';
import { createForwardingFilter } from './shared/forwarding-filter.ts';
import { createRevocationNotifier } from './notify/revocation-notifier.ts';
import { createProvider } from './library/create-provider.ts';
import { replaceClientSecretCheck, replaceDpopReplayCheck, silenceParsedBodyWarning } from './library/library-seams.ts';
import { judgeClientAddress } from './throttle/client-address.ts';
import { holdRefusalsAtEdge } from './throttle/refusal-hold.ts';
import { internalOnly } from './shared/internal-only.ts';
import { createLoginThrottle } from './throttle/login-throttle.ts';
import { createThrottledAuthenticator, createThrottleGuard } from './throttle/throttled-authenticator.ts';
import { createThrottledSecretCheck } from './clients/throttled-secret-check.ts';
import { verifyClientSecret } from './clients/client-secret.ts';
import { createSecretVerifier } from './clients/secret-cache.ts';

export interface AuthServerOptions extends Partial<AuthServerConfig> {
  databaseUrl: string;
  /** Keys to use instead of reading/creating `keysFile`. */
  keys?: ProviderKeys;
  /** Logger for request lines and errors. Default: createLogger('auth-server'). */
  logger?: Logger;
  /**
   * The introspection fast path (endpoints/introspection/fast-introspection.ts). Default
   * true; false leaves every introspection to the provider (the fast path's
   * test compares both answers).
   */
  fastIntrospection?: boolean;
  /**
   * The slow client-secret comparison behind the secret cache. Default:
   * bcrypt through the password-hash queue; the secret cache's test counts
   * calls through it.
   */
  compareClientSecret?: (secret: string, hashedSecret: string) => Promise<boolean>;
}

export interface ListeningServer {
  /** Base URL of the listening socket, e.g. http://127.0.0.1:8889 */
  url: string;
  port: number;
  /** The management port's base URL, when AUTH_MANAGEMENT_PORT is set. */
  managementUrl?: string;
  close(): Promise<void>;
}

export interface AuthServer {
  app: Koa;
  provider: Provider;
  db: PrismaClient;
  config: AuthServerConfig;
  /** GET /health/live and /health/ready (see the platform's createHealth). */
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
  const { keys: _keys, logger: _logger, fastIntrospection: _fast, compareClientSecret: _compare, ...overrides } = options;
  const { logLevel: _logLevel, publicPort: _publicPort, ...defaults } = DEFAULTS;
  return { ...defaults, metricsAllow: [], trustedProxies: [], keysFile: defaultKeysFile(), managementPort: undefined, ...overrides };
}

export async function createAuthServer(options: AuthServerOptions): Promise<AuthServer> {
  const config = resolveConfig(options);
  const logger = options.logger ?? createLogger('auth-server');
  const keys = options.keys ?? loadOrCreateKeys(config.keysFile);
  const db = createDb(config.databaseUrl, {
    maxConnections: config.databasePoolSize,
    connectionTimeoutMs: config.dbConnectTimeoutMs,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    preparedStatements: config.dbPreparedStatements,
    onIdleConnectionError: (err) => logger.warn({ err }, 'idle database connection lost'),
  });

  const notify = createRevocationNotifier(db, logger);
  const trail = createAuditTrail(logger);
  const provider = createProvider({
    config,
    keys,
    adapter: createAdapterFactory({
      db,
      notify,
      introspectionOnlyClientId: config.resourceServerClientId,
      trail,
    }),
    findAccount: createFindAccount(db),
  });
  await silenceParsedBodyWarning();
  // A DPoP proof is accepted once at the token endpoint, by any replica (RFC 9449 section 11.1).
  replaceDpopReplayCheck(provider, async (clientId, jti, expiresAtSeconds) =>
    (await claimProofIds(sqlPool(db), [{ id: proofIdKey('token', clientId, jti), expiresAtMs: expiresAtSeconds * 1000 }]))[0] === true);
  // Every password check waits in a bounded queue; beyond it, 503 at once (library/password-grant.ts, endpoints/code-endpoint.ts).
  const hashQueue = new BoundedQueue({ concurrency: config.passwordHashConcurrency, maxQueued: config.passwordHashQueueMax });
  // Client secrets are bcrypt hashes too: a compare not yet remembered waits in the same queue at low
  // priority (anyone can send one without credentials; a user's password goes first, full → 503).
  const secrets = createSecretVerifier({
    max: config.secretCacheMax,
    ttlMs: config.secretCacheTtlMs,
    compare: options.compareClientSecret ?? ((secret, hash) => hashQueue.run(() => verifyClientSecret(secret, hash), { priority: 'low' })),
  });
  // One throttle for every credential: passwords per account, secrets per client, both per address (smart lockout).
  const guard = createThrottleGuard(createLoginThrottle(db, {
    accountFailures: config.loginAccountFailures,
    backoffMs: config.loginBackoffMs,
    backoffMaxMs: config.loginBackoffMaxMs,
    addressFailures: config.loginAddressFailures,
    addressWindowMs: config.loginAddressWindowMs,
    knownAddressTtlMs: config.loginKnownAddressDays * 86_400_000,
  }), { refusalDelayMs: config.loginRefusalDelayMs });
  replaceClientSecretCheck(provider, createThrottledSecretCheck(secrets, guard));
  const authenticate = createThrottledAuthenticator(createUserAuthenticator(db, config.bcryptCost, hashQueue), guard, createLoginAuditor(trail, sqlPool(db)));
  registerPasswordGrant(provider, { authenticate, accessTokenTtl: config.accessTokenTtl });
  registerClientCredentialsGrant(provider, { accessTokenTtl: config.accessTokenTtl });
  provider.on('server_error', (_ctx: unknown, err: unknown) => {
    // A full hash queue is load shedding (answered 503 by the outage mapper), not an error.
    if (!(err instanceof QueueFullError)) logger.error({ err }, 'oidc-provider server error');
  });

  const app = new Koa({ proxy: true, keys: keys.cookieKeys });
  const codeRouter = createCodeRouter({
    db,
    provider,
    authenticate,
    issuer: config.publicBaseUrl,
    authCodeTtl: config.authCodeTtl,
    introspectionOnlyClientId: config.resourceServerClientId,
  });
  // A request id first (on every log line of the request), then the probes
  // (no body, no request log line, not counted), then metrics.
  // The limits a pooled connection really has: a pooler may have dropped DB_QUERY_TIMEOUT_MS (not ready then).
  const queryTimeouts = createQueryTimeoutCheck({ expectedMs: config.dbQueryTimeoutMs, logger, db: sqlPool(db) });
  const health = createHealth({ checks: { database: () => ping(sqlPool(db)), queryTimeouts: () => queryTimeouts.ready() } });
  const metrics = createServerMetrics({ allow: config.metricsAllow, db, hashQueue });
  // The request's span, only while tracing (docs/operations.md, "Tracing"): first, so every layer runs inside it.
  if (isTracing()) app.use(traceRequests());
  app.use(judgeClientAddress(config.trustedProxies));
  app.use(noSniff);
  app.use(createRequestId());
  app.use(internalOnly(config.metricsAllow));
  app.use(health.middleware);
  app.use(metrics.middleware);
  app.use(createRequestLogger(logger));
  // A refusal delayed on purpose is held by the edge when it came through it (throttle/refusal-hold.ts).
  app.use(holdRefusalsAtEdge);
  app.use(createHttpKit({ logger, maxBodyBytes: config.authMaxBodyBytes, translateError: mapDatabaseError }).middleware);
  app.use(async function notFound(ctx, next) {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) throw new NotFoundError();
  });
  app.use(mountEndpoints(createProviderEndpoints({
    db,
    provider,
    notify,
    publicBaseUrl: config.publicBaseUrl,
    resourceServerClientId: config.resourceServerClientId,
    secrets,
    fastIntrospection: options.fastIntrospection !== false,
  })));
  app.use(codeRouter.routes());

  // `auth keys rotate`: the new key signs here without a restart (library/signing-keys.ts).
  const stopFollowingKeys = options.keys ? () => {} : followSigningKeys({
    provider,
    file: config.keysFile,
    keys,
    logger,
    onRotated: async (kid) => {
      await recordKeysRotated(sqlPool(db), kid, logger);
    },
  });
  const stopPurge = startPurgeTimer(db, config.purgeIntervalMs, logger, {
    knownAddressTtlMs: config.loginKnownAddressDays * 86_400_000,
    auditRetentionMs: config.auditRetentionDays * 86_400_000,
  });
  const listening = new Set<ListeningServer>();

  return {
    app,
    provider,
    db,
    config,
    health,
    async listen(port = config.port) {
      void queryTimeouts.ready(); // checked at start: its line, if any, comes out now
      // Timeouts, JSON answers to malformed requests, 413 before 100-continue.
      const handler = app.callback();
      const filter = createForwardingFilter(config.trustedProxies);
      // X-Forwarded-* only from the edge (shared/forwarding-filter.ts).
      const serving = await serve((req, res) => {
        filter(req);
        return handler(req, res);
      }, {
        port,
        host: config.host,
        shutdownTimeoutMs: config.shutdownTimeoutMs,
        maxBodyBytes: config.authMaxBodyBytes,
        logger,
      });
      // Probes and scrapes on a port of their own, never published (AUTH_MANAGEMENT_PORT): the last thing to close.
      const management = config.managementPort === undefined ? undefined : await serveManagement({ port: config.managementPort, host: config.host, health, metrics, logger });
      const handle: ListeningServer = {
        url: serving.url,
        port: serving.port,
        ...(management && { managementUrl: management.url }),
        close: async () => {
          listening.delete(handle);
          await serving.close();
          await management?.close();
        },
      };
      listening.add(handle);
      return handle;
    },
    async close() {
      health.markDraining();
      stopPurge();
      stopFollowingKeys();
      await Promise.all([...listening].map((handle) => handle.close()));
      await db.$disconnect();
    },
  };
}
