/**
 * Wires one authorization server: the database, oidc-provider with our grants and seams, the password-hash queue, the
 * secret cache and the credential throttle, health and metrics, the Koa app (app.ts). listen() serves the app behind
 * the forwarding filter (and the management port, if set); close() drains, stops the timers and closes the pool.
 */
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import { claimProofIds, createDb, createQueryTimeoutCheck, ping, proofIdKey, sqlPool, type PrismaClient } from '@heroes/db';
import { QueueFullError } from '@heroes/http-kit';
import { BoundedQueue, createHealth, createLogger, serve, serveManagement, type Health } from '@heroes/platform';
import { createApp, type AppDeps } from './app.ts';
import { resolveConfig, type AuthServerConfig, type AuthServerOptions } from './config/auth-server-config.ts';
import { loadOrCreateKeys } from './config/keys.ts';
import { createAuditTrail } from './audit/audit-trail.ts';
import { createLoginAuditor } from './audit/login-audit.ts';
import { recordKeysRotated } from './audit/keys-audit.ts';
import { createServerMetrics } from './metrics/server-metrics.ts';
import { createUserAuthenticator } from './accounts/authenticate-user.ts';
import { createFindAccount } from './accounts/find-account.ts';
import { createAdapterFactory } from './adapter/create-adapter.ts';
import { startPurgeTimer } from './adapter/purge-expired.ts';
import { createRevocationNotifier } from './notify/revocation-notifier.ts';
import { createProvider } from './library/create-provider.ts';
import { followSigningKeys } from './library/signing-keys.ts';
import { registerPasswordGrant } from './library/password-grant.ts';
import { registerClientCredentialsGrant } from './library/client-credentials-grant.ts';
import { replaceClientSecretCheck, replaceDpopReplayCheck, silenceParsedBodyWarning } from './library/library-seams.ts';
import { createForwardingFilter } from './common/forwarding-filter.ts';
import { createLoginThrottle } from './throttle/login-throttle.ts';
import { createThrottledAuthenticator, createThrottleGuard } from './throttle/throttled-authenticator.ts';
import { createThrottledSecretCheck } from './clients/throttled-secret-check.ts';
import { verifyClientSecret } from './clients/client-secret.ts';
import { createSecretVerifier } from './clients/secret-cache.ts';

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
  /** The bounded queue every bcrypt compare waits in: a password at high priority, a client secret at low. */
  hashQueue: BoundedQueue;
  /** Listens on `port` (default config.port; 0 = ephemeral) and config.host. */
  listen(port?: number): Promise<ListeningServer>;
  /**
   * Drains: /health/ready answers 503, in-flight requests finish (up to
   * SHUTDOWN_TIMEOUT_MS) while new connections are refused; then the purge
   * timer and the database pool are closed.
   */
  close(): Promise<void>;
}

/**
 * `buildApp` composes the app from its dependencies (default: every layer, app.ts); tests pass their own selection.
 *
 * Usage:
 *   const server = await createAuthServer({ databaseUrl });
 *   const { url, close } = await server.listen(0);
 */
export async function createAuthServer(options: AuthServerOptions, buildApp: (deps: AppDeps) => Koa = createApp): Promise<AuthServer> {
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
  // Every password check waits in a bounded queue; beyond it, 503 at once (library/password-grant.ts, endpoints/code/code-endpoint.ts).
  const hashQueue = new BoundedQueue({ concurrency: config.passwordHashConcurrency, maxQueued: config.passwordHashQueueMax });
  // Client secrets are bcrypt hashes too: a compare not yet remembered waits in the same queue at low
  // priority (anyone can send one without credentials; a user's password goes first, full → 503).
  const secrets = createSecretVerifier({
    max: config.secretCacheMax,
    ttlMs: config.secretCacheTtlMs,
    compare: (secret, hash) => hashQueue.run(() => verifyClientSecret(secret, hash), { priority: 'low' }),
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

  // The limits a pooled connection really has: a pooler may have dropped DB_QUERY_TIMEOUT_MS (not ready then).
  const queryTimeouts = createQueryTimeoutCheck({ expectedMs: config.dbQueryTimeoutMs, logger, db: sqlPool(db) });
  const health = createHealth({ checks: { database: () => ping(sqlPool(db)), queryTimeouts: () => queryTimeouts.ready() } });
  const metrics = createServerMetrics({ allow: config.metricsAllow, db, hashQueue });
  const app = buildApp({ config, db, provider, cookieKeys: keys.cookieKeys, notify, secrets, authenticate, health, metrics, logger });

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
    walBytesPerSecond: config.purgeWalMbPerSecond * 1_000_000,
  });
  const listening = new Set<ListeningServer>();

  return {
    app,
    provider,
    db,
    config,
    health,
    hashQueue,
    async listen(port = config.port) {
      void queryTimeouts.ready(); // checked at start: its line, if any, comes out now
      // Timeouts, JSON answers to malformed requests, 413 before 100-continue.
      const handler = app.callback();
      const filter = createForwardingFilter(config.trustedProxies);
      // X-Forwarded-* only from the edge (common/forwarding-filter.ts).
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
