/**
 * Every default of http-kit, in one place.
 */
export const DEFAULTS = Object.freeze({
  /**
   * Maximum request body size.
   * Unit: bytes. Default 10 MiB (Aqueduct `RequestBody.maxSize`). A body of
   * exactly this size is accepted; one byte more gives 413, whether the
   * length is announced by Content-Length or counted while reading a
   * chunked body.
   */
  maxBodyBytes: 10 * 1024 * 1024,

  /**
   * Most `key=value` pairs in one form body (FormCodec). One more gives 413
   * `too many form parameters` before any value is decoded, so a body of
   * repeated keys cannot fan out. 1,000 is Node's querystring default.
   */
  maxFormParameters: 1_000,

  /**
   * Most parameters in one query string. One more gives 400 `too many query
   * parameters` before any route runs (Node's querystring would silently
   * drop the rest, so a route could see another request than was sent).
   */
  maxQueryParameters: 1_000,

  /**
   * Smallest response body that is gzipped.
   * Unit: bytes. Default 0: every eligible body is gzipped, as Aqueduct
   * does and as docs/http.md states (the Accept-Encoding and the
   * registry entry decide, not the size). Raise it (koa-compress uses 1024)
   * where tiny bodies dominate. Streams (unknown length) are always eligible.
   */
  compressThreshold: 0,

  /**
   * After a 413 (or another read failure) the rest of the request is read
   * and discarded before answering, so the keep-alive connection stays
   * usable. When the client has not finished sending within this time, the
   * answer goes out with `Connection: close` instead.
   * Unit: milliseconds.
   */
  drainTimeoutMs: 5_000,

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
   * During a drain, how long a connection that was idle when the drain
   * began stays open: a request the client had already sent on it (in
   * flight as the signal came) is served, with `Connection: close`; then
   * every connection still idle is closed. Unit: milliseconds.
   */
  drainIdleGraceMs: 1_000,

  /**
   * `Retry-After` of every 503 that names no wait of its own (a database
   * outage, the authorization server unreachable, a draining server's
   * readiness): a 503 always says when to try again (RFC 9110 section 10.2.3).
   * Unit: seconds.
   */
  retryAfterSeconds: 5,

  /** Logger name used when no logger is passed. */
  loggerName: 'http',
});
