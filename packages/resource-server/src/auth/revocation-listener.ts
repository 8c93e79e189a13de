/**
 * Keeps a dedicated PostgreSQL connection on `LISTEN heroes_tokens_revoked`.
 * The authorization server NOTIFYs that channel whenever tokens die
 * (payload like {"grantId":..,"tokenHash":..} or {"clientId":..}).
 * - each notification → onRevoked(payload) (the cache evicts what it names);
 *   after a (re)connect, onRevoked(undefined): notices may have been missed.
 * - onTrusted(false) as soon as the connection is lost or fails a heartbeat;
 *   onTrusted(true) only after LISTEN is active again (and onRevoked() ran,
 *   since notices may have been missed meanwhile).
 * - reconnects with exponential backoff (100 ms doubling to 5 s).
 * - a heartbeat (`SELECT 1`, every heartbeatMs) catches half-open sockets.
 */
import { TOKENS_REVOKED_CHANNEL as REVOCATION_CHANNEL } from '@heroes/oauth-scopes';
import pg from 'pg';
import type { Logger } from 'pino';

export interface RevocationListenerOptions {
  databaseUrl: string;
  logger: Logger;
  onRevoked(payload: string | undefined): void;
  onTrusted(trusted: boolean): void;
  heartbeatMs?: number;
  connectTimeoutMs?: number;
}

export interface RevocationListener {
  /** Resolves after the first LISTEN succeeded or failed (it keeps retrying either way). */
  start(): Promise<void>;
  close(): Promise<void>;
}

const MIN_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 5_000;

/**
 * Usage:
 *   const listener = createRevocationListener({ databaseUrl, logger, onRevoked: (payload) => evict(payload),
 *     onTrusted: (ok) => (cache.trusted = ok) });
 *   await listener.start();
 */
export function createRevocationListener(options: RevocationListenerOptions): RevocationListener {
  const { logger, heartbeatMs = 5_000, connectTimeoutMs = 3_000 } = options;
  let client: pg.Client | undefined;
  let closed = false;
  let backoff = MIN_BACKOFF_MS;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

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
    });
    try {
      await current.connect();
      await current.query(`LISTEN ${REVOCATION_CHANNEL}`);
    } catch (err) {
      lost(current, err);
      return;
    }
    if (closed || client !== current) return;
    backoff = MIN_BACKOFF_MS;
    options.onRevoked(undefined);
    options.onTrusted(true);
    logger.info({ channel: REVOCATION_CHANNEL }, 'listening for token revocations');
    heartbeat = setInterval(() => void beat(current), heartbeatMs);
    heartbeat.unref();
  }

  async function beat(current: pg.Client): Promise<void> {
    const timeout = new Promise<never>((_, reject) => {
      setTimeout(() => reject(new Error('heartbeat timed out')), connectTimeoutMs).unref();
    });
    try {
      await Promise.race([current.query('SELECT 1'), timeout]);
    } catch (err) {
      lost(current, err);
    }
  }

  function lost(current: pg.Client, err: unknown): void {
    if (client !== current) return;
    client = undefined;
    options.onTrusted(false);
    clearInterval(heartbeat);
    current.removeAllListeners('notification');
    current.on('error', () => {});
    current.end().catch(() => {});
    if (closed) return;
    logger.warn({ err, retryInMs: backoff }, 'revocation feed lost; introspecting every request until it is back');
    retryTimer = setTimeout(() => void connect(), backoff);
    retryTimer.unref();
    backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
  }

  return {
    start: () => connect(),
    async close() {
      closed = true;
      clearTimeout(retryTimer);
      clearInterval(heartbeat);
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
