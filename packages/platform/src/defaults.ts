/**
 * Every default of the platform, in one place. The body limit and the
 * `Retry-After` of a 503 are http-kit's (one value for both packages).
 */
import { DEFAULTS as HTTP_DEFAULTS } from '@heroes/http-kit';

export const DEFAULTS = Object.freeze({
  /** Request body limit configureServer() checks `Expect: 100-continue` against (http-kit's, 10 MiB). */
  maxBodyBytes: HTTP_DEFAULTS.maxBodyBytes,

  /** `Retry-After` of a draining server's readiness 503 (http-kit's, seconds). */
  retryAfterSeconds: HTTP_DEFAULTS.retryAfterSeconds,

  /**
   * Longest time a client may take to send one whole request (headers and
   * body) before it gets 408 and the connection is closed; configureServer()
   * sets it as `server.requestTimeout` (Node's own default is 300 s).
   * Unit: milliseconds. 0 disables it.
   */
  requestTimeoutMs: 30_000,

  /**
   * Longest time a client may take to send the request headers
   * (`server.headersTimeout`; Node's default is 60 s). Never above
   * requestTimeoutMs. Unit: milliseconds.
   */
  headersTimeoutMs: 15_000,

  /**
   * How often Node checks the two timeouts above
   * (`server.connectionsCheckingInterval`; Node's default is 30 s, which
   * would let a stalled request live up to 30 s past its limit).
   * Unit: milliseconds.
   */
  connectionsCheckingIntervalMs: 1_000,

  /**
   * Lingering close (server/linger-on-close.ts): after an answer that closes
   * the connection before the request body was read (an early 413, 401,
   * 415), the server keeps reading and discarding the rest of the body for
   * at most this long, so the client's upload is not reset and the client
   * reads the answer (nginx's `lingering_time`, 30 s there).
   * Unit: milliseconds.
   */
  lingerMs: 10_000,

  /**
   * Most bytes read and discarded while lingering; past it the connection
   * is closed at once. Unit: bytes. Default 64 MiB.
   */
  lingerBytes: 64 * 1024 * 1024,

  /**
   * During a drain, how long a connection stays open while idle (counted
   * from the drain's start for one idle then): a request the client had
   * already sent on it (in flight as the signal came) is served, with
   * `Connection: close`; a connection idle that long is closed.
   * Unit: milliseconds.
   */
  drainIdleGraceMs: 1_000,
});
