/**
 * The revocation feed: its own connection on `LISTEN heroes_tokens_revoked`; each notice → onRevoked. It never dies
 * in silence (docs/operations.md, "Connection poolers"): a heartbeat NOTIFY sent through the pool must come back in
 * time (commit order: every earlier revocation arrived); trusted only after one returns on a fresh connection,
 * untrusted at once when lost or late, reconnecting with backoff; a transaction pooler's URL is refused at start.
 */
import crypto from 'node:crypto';
import { isTransactionPooled, listen } from '@heroes/db/pg';
import { TOKENS_REVOKED_CHANNEL as REVOCATION_CHANNEL } from '@heroes/oauth-scopes';
import { SettingsError } from '@heroes/platform/settings';
import pg from 'pg';
import type { Logger } from 'pino';

export interface RevocationListenerOptions {
  /** The URL the feed listens on, and the variable it came from (named when it cannot work). */
  databaseUrl: string;
  setting: 'DATABASE_URL' | 'DATABASE_DIRECT_URL';
  /** Sends one NOTIFY through the server's pool: `SELECT pg_notify($1, $2)`. */
  notify(channel: string, payload: string): Promise<unknown>;
  logger: Logger;
  onRevoked(payload: string | undefined): void;
  onTrusted(trusted: boolean): void;
  heartbeatMs?: number;
  heartbeatTimeoutMs?: number;
  connectTimeoutMs?: number;
}

export interface RevocationListener {
  /**
   * Resolves after the first LISTEN and heartbeat succeeded or failed (it keeps retrying either way); rejects
   * with a SettingsError when the URL is a transaction pooler's.
   */
  start(): Promise<void>;
  close(): Promise<void>;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

/** How a feed that cannot work is told to the operator: one line naming the setting to fix. */
function pooledFeedProblem(setting: RevocationListenerOptions['setting']): string {
  return setting === 'DATABASE_URL'
    ? 'DATABASE_URL goes through a transaction pooler, which cannot carry the revocation feed (LISTEN): set DATABASE_DIRECT_URL to a direct PostgreSQL URL (docs/operations.md, "Connection poolers")'
    : 'DATABASE_DIRECT_URL goes through a transaction pooler, which cannot carry the revocation feed (LISTEN): point it at PostgreSQL itself or a session pooler (docs/operations.md, "Connection poolers")';
}

/**
 * Usage:
 *   const listener = createRevocationListener({ databaseUrl, setting: 'DATABASE_URL', logger,
 *     notify: (channel, payload) => pool.query({ text: 'SELECT pg_notify($1, $2)', values: [channel, payload] }),
 *     onRevoked: (payload) => evict(payload), onTrusted: (ok) => (cache.trusted = ok) });
 *   await listener.start();
 */
export function createRevocationListener(options: RevocationListenerOptions): RevocationListener {
  const { logger, heartbeatMs = 1_000, heartbeatTimeoutMs = 2_000, connectTimeoutMs = 3_000 } = options;
  // This listener's own heartbeat channel: other replicas never receive its beats.
  const heartbeatChannel = `heroes_feed_${crypto.randomBytes(8).toString('hex')}`;
  let client: pg.Client | undefined;
  let closed = false;
  let sessionChecked = false;
  let trusted = false;
  let backoff = MIN_BACKOFF_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let beatTimer: NodeJS.Timeout | undefined;
  let deadline: NodeJS.Timeout | undefined;
  let sequence = 0;
  let settleStart: ((error?: Error) => void) | undefined;

  async function connect(): Promise<void> {
    const current = new pg.Client({
      connectionString: options.databaseUrl,
      keepAlive: true,
      connectionTimeoutMillis: connectTimeoutMs,
      application_name: 'resource-server-revocations',
    });
    client = current;
    current.on('error', (err) => lost(current, err));
    current.on('end', () => lost(current, undefined));
    current.on('notification', (message) => {
      if (message.channel === REVOCATION_CHANNEL) options.onRevoked(message.payload);
      else if (message.channel === heartbeatChannel && message.payload === String(sequence)) heartbeatBack(current);
    });
    try {
      if (!sessionChecked) {
        if (await isTransactionPooled(options.databaseUrl, { connectTimeoutMs })) return refuse(current);
        sessionChecked = true;
      }
      await current.connect();
      await listen(current, [REVOCATION_CHANNEL, heartbeatChannel]);
    } catch (err) {
      lost(current, err);
      return;
    }
    if (closed || client !== current) return;
    beat(current);
  }

  function beat(current: pg.Client): void {
    if (client !== current) return;
    const sent = ++sequence;
    deadline = setTimeout(() => lost(current, new Error(`heartbeat NOTIFY not received within ${heartbeatTimeoutMs} ms`)), heartbeatTimeoutMs);
    deadline.unref();
    options.notify(heartbeatChannel, String(sent)).catch((err: unknown) => {
      if (sequence === sent) lost(current, err);
    });
  }

  function heartbeatBack(current: pg.Client): void {
    if (client !== current) return;
    clearTimeout(deadline);
    if (!trusted) {
      trusted = true;
      backoff = MIN_BACKOFF_MS;
      options.onRevoked(undefined);
      options.onTrusted(true);
      logger.info({ channel: REVOCATION_CHANNEL }, 'listening for token revocations');
      settleStart?.();
    }
    beatTimer = setTimeout(() => beat(current), heartbeatMs);
    beatTimer.unref();
  }

  function stopTimers(): void {
    clearTimeout(beatTimer);
    clearTimeout(deadline);
  }

  function refuse(current: pg.Client): void {
    client = undefined;
    current.removeAllListeners();
    const problem = pooledFeedProblem(options.setting);
    // At start, the caller reports it (one line, exit 1); found later (the database was down at start), the log does.
    if (settleStart) settleStart(new SettingsError([problem]));
    else logger.error({ setting: options.setting }, problem);
  }

  function lost(current: pg.Client, err: unknown): void {
    if (client !== current) return;
    client = undefined;
    trusted = false;
    options.onTrusted(false);
    stopTimers();
    current.removeAllListeners('notification');
    current.on('error', () => {});
    current.end().catch(() => {});
    if (closed) return;
    logger.warn({ err, retryInMs: backoff }, 'revocation feed lost; introspecting every request until it is back');
    settleStart?.();
    retryTimer = setTimeout(() => void connect(), backoff);
    retryTimer.unref();
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }

  return {
    start() {
      const started = new Promise<void>((resolve, reject) => {
        settleStart = (error) => {
          settleStart = undefined;
          if (error) reject(error);
          else resolve();
        };
      });
      void connect();
      return started;
    },
    async close() {
      closed = true;
      settleStart?.();
      clearTimeout(retryTimer);
      stopTimers();
      trusted = false;
      options.onTrusted(false);
      const current = client;
      client = undefined;
      if (current) {
        current.on('error', () => {});
        await current.end().catch(() => {});
      }
    },
  };
}
