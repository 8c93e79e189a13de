/**
 * Wires one resource server: database pool, cached introspection, the revocation feed, the /auth forwarder, the
 * Koa app. listen() starts the feed (a transaction pooler's URL refused with one line), ensures its own client and
 * the web app's (retried in the background while the database is down: the edge starts and answers 503), then
 * serves; close() drains and closes the feed, the proxy agent and the pool.
 */
import cluster from 'node:cluster';
import type Koa from 'koa';
import { createQueryTimeoutCheck, notify, ping } from '@heroes/db/pg';
import { parseRevokedTokens } from '@heroes/oauth-scopes';
import { BoundedQueue, createHealth, createLogger, serve, serveManagement, type Health } from '@heroes/platform';
import { createServerMetrics } from './metrics/server-metrics.ts';
import { createApp, type AppDeps } from './app.ts';
import { CachedIntrospector } from './auth/cached-introspector.ts';
import { createIntrospector } from './auth/introspect-token.ts';
import { createCredentialsWatch } from './auth/credentials-watch.ts';
import { createRevocationListener } from './auth/revocation-listener.ts';
import { ensureClient } from './config/ensure-client.ts';
import { APP_CLIENT_ID, ensureAppClient } from './config/ensure-app-client.ts';
import { createPool } from './data/create-pool.ts';
import { createHeroRepository } from '@heroes/db/pg';
import { HeroListCache, invalidatingWrites } from './data/hero-list-cache.ts';
import { resolveConfig, type ResourceServerConfig, type ResourceServerOptions } from './config/resource-server-config.ts';
import { createAuthForwarder, type RefusalDecider } from './proxy/forward-to-auth-server.ts';
import type { RepeatedRefusals } from './proxy/repeated-refusals.ts';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export interface ResourceServer {
  app: Koa;
  config: ResourceServerConfig;
  introspector: CachedIntrospector;
  /** Refused logins the edge repeats itself (proxy/repeated-refusals.ts). */
  refusals: RepeatedRefusals;
  /** GET /health/live and /health/ready (see the platform's createHealth). */
  health: Health;
  /** Resolves once the server's own OAuth client row is in place. */
  clientReady: Promise<void>;
  listen(port?: number, host?: string): Promise<RunningServer>;
}

/**
 * `buildApp` composes the app from its dependencies (default: every layer, app.ts); the bench's layer table passes
 * its own selection.
 *
 * Usage:
 *   const server = createResourceServer({ databaseUrl, clientSecret, authServerUrl });
 *   const { url, close } = await server.listen(0);
 */
export function createResourceServer(options: ResourceServerOptions, buildApp: (deps: AppDeps) => Koa = createApp): ResourceServer {
  const config = resolveConfig(options);
  const logger = config.logger ?? createLogger('resource-server');
  const pool = createPool({
    databaseUrl: config.databaseUrl,
    max: config.dbPoolSize,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    queryTimeoutMs: config.dbQueryTimeoutMs,
    preparedStatements: config.dbPreparedStatements,
    logger,
  });
  // Cluster workers keep no list: a client's next read may reach a sibling (hero-list-cache.ts).
  const listCache = new HeroListCache(cluster.isWorker ? 0 : config.heroListCacheMs);
  const heroes = invalidatingWrites(createHeroRepository(pool), listCache);
  let countLookup: (result: 'hit' | 'miss' | 'uncached') => void = () => {};
  let countRefusal: (decidedBy: RefusalDecider) => void = () => {};
  const credentials = createCredentialsWatch({ clientId: config.clientId, logger });
  const introspect = credentials.observe(createIntrospector({
    authServerUrl: config.authServerUrl,
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    timeoutMs: config.introspectionTimeoutMs,
  }));
  const introspector = new CachedIntrospector(
    introspect,
    {
      max: config.introspectionCacheMax,
      ttlMs: config.introspectionCacheTtlMs,
      negativeMax: config.introspectionNegativeCacheMax,
      negativeTtlMs: config.introspectionNegativeTtlMs,
      onLookup: (result) => countLookup(result),
    },
  );
  const revocations = createRevocationListener({
    // LISTEN needs a session of its own: a transaction pooler's DATABASE_URL is refused (revocation-listener.ts).
    databaseUrl: config.databaseDirectUrl ?? config.databaseUrl,
    setting: config.databaseDirectUrl ? 'DATABASE_DIRECT_URL' : 'DATABASE_URL',
    notify: (channel, payload) => notify(pool, channel, payload),
    logger,
    connectTimeoutMs: config.dbConnectTimeoutMs,
    onRevoked: (payload) => {
      const notice = payload === undefined ? undefined : parseRevokedTokens(payload);
      // A lockout's end (or a feed that may have missed one): no refusal is repeated from memory.
      if (notice === undefined || notice.unlockedAccount !== undefined) forwarder.refusals.clear();
      if (notice !== undefined && Object.keys(notice).length === 1 && notice.unlockedAccount !== undefined) return;
      if (payload === undefined) introspector.clear();
      else introspector.revoked(notice);
    },
    onTrusted: (trusted) => {
      introspector.trusted = trusted;
      forwarder.refusals.trusted = trusted;
    },
  });
  const forwarder = createAuthForwarder({
    target: config.authServerUrl,
    timeoutMs: config.authProxyTimeoutMs,
    // The authorization server's own limit: only credential routes live there.
    maxBodyBytes: config.authMaxBodyBytes,
    bodyTimeoutMs: config.authBodyTimeoutMs,
    maxSockets: config.authProxyMaxSockets,
    perAddressMax: config.authProxyAddressMax,
    logger,
    onRefusalAnswered: (decidedBy) => countRefusal(decidedBy),
  });
  // The limits a pooled connection really has: a pooler may have dropped DB_QUERY_TIMEOUT_MS (not ready then).
  const queryTimeouts = createQueryTimeoutCheck({
    expectedMs: config.dbQueryTimeoutMs,
    logger,
    db: pool,
  });
  const health = createHealth({
    checks: {
      database: () => ping(pool),
      queryTimeouts: () => queryTimeouts.ready(),
      revocationFeed: () => introspector.trusted,
      authServer: async () => {
        const res = await fetch(`${config.authServerUrl}/health/ready`, { signal: AbortSignal.timeout(1_000) });
        await res.arrayBuffer();
        return res.status === 200;
      },
      clientCredentials: () => credentials.check(introspect),
    },
  });
  // bcrypt of /register: a burst of registrations waits in a bounded queue, beyond it 503 at once.
  const hashQueue = new BoundedQueue({ concurrency: config.passwordHashConcurrency, maxQueued: config.passwordHashQueueMax });
  const metrics = createServerMetrics({ allow: config.metricsAllow, pool, hashQueue });
  countLookup = metrics.countLookup;
  countRefusal = metrics.countRefusal;
  const app = buildApp({ config, db: pool, heroes, listCache, introspector, forwarder, health, metrics, logger, hashQueue });

  let stopped = false;
  let resolveClientReady: () => void = () => {};
  const clientReady = new Promise<void>((resolve) => {
    resolveClientReady = resolve;
  });

  async function registerClient(delayMs = 500): Promise<void> {
    if (stopped) return;
    try {
      const result = await ensureClient(pool, { ...config, logger });
      const app = await ensureAppClient(pool, { publicBaseUrl: config.publicBaseUrl, scopes: [config.heroesReadScope, config.heroesWriteScope], logger });
      if (app.result === 'added-redirect-uris') logger.info({ appClientId: APP_CLIENT_ID, added: app.added }, 'redirect URIs of the current PUBLIC_BASE_URL added to the built-in app client');
      logger.info({ clientId: config.clientId, result, appClientId: APP_CLIENT_ID, appClient: app.result }, 'resource-server client ready');
      resolveClientReady();
    } catch (err) {
      logger.warn({ err, retryInMs: delayMs }, 'could not register the resource-server client; retrying');
      setTimeout(() => void registerClient(Math.min(delayMs * 2, 10_000)), delayMs).unref();
    }
  }

  async function listen(port = config.port, host = config.host): Promise<RunningServer> {
    // Refused (a transaction pooler's URL for the feed): one line naming the setting, nothing left open.
    await revocations.start().catch(async (err: unknown) => {
      stopped = true;
      await revocations.close();
      await pool.end();
      throw err;
    });
    void queryTimeouts.ready(); // checked at start: its line, if any, comes out now
    await registerClient();
    const serving = await serve(app.callback(), {
      port,
      host,
      shutdownTimeoutMs: config.shutdownTimeoutMs,
      keepAliveTimeoutMs: 65_000,
      maxBodyBytes: config.maxBodyBytes,
      requestTimeoutMs: config.requestTimeoutMs,
      headersTimeoutMs: config.headersTimeoutMs,
      logger,
    });
    // Probes and scrapes on a port of their own, never published (MANAGEMENT_PORT): the last thing to close.
    const management = config.managementPort === undefined ? undefined : await serveManagement({ port: config.managementPort, host, health, metrics, logger });
    const { url } = serving;
    logger.info({ url, ...(management && { managementUrl: management.url }) }, 'resource server listening');
    return {
      url,
      async close() {
        stopped = true;
        health.markDraining();
        const { cut } = await serving.close();
        if (cut > 0) logger.warn({ cut, shutdownTimeoutMs: config.shutdownTimeoutMs }, 'requests still running at the end of the drain were cut');
        forwarder.close();
        await revocations.close();
        await pool.end();
        await management?.close();
      },
    };
  }

  return { app, config, introspector, refusals: forwarder.refusals, health, clientReady, listen };
}
