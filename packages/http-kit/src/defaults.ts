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
   * `Retry-After` of every 503 that names no wait of its own (a database
   * outage, the authorization server unreachable, a draining server's
   * readiness): a 503 always says when to try again (RFC 9110 section 10.2.3).
   * Unit: seconds.
   */
  retryAfterSeconds: 5,
});
