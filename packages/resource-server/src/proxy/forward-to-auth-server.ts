/**
 * Middleware: `/auth`, `/auth/*` and `/.well-known/*` go to the
 * authorization server untouched, through http-proxy-3 (the maintained
 * rewrite of http-proxy), streaming both ways.
 * - runs before http-kit: these bodies are never read or re-encoded here;
 *   status, headers, redirects (Location) and cookies pass as they are.
 * - X-Forwarded-* per forwarded-headers.ts; Host is kept (no changeOrigin).
 * - keep-alive agent to the authorization server.
 * - authorization server unreachable or silent for timeoutMs → 503 JSON
 *   `{"error":"authorization server unavailable"}` (never 500, never a hang);
 *   it answered but its response could not be parsed (HPE_* from Node's
 *   parser, e.g. a header block over maxHeaderBytes) → 502 JSON
 *   `{"error":"bad gateway"}` (RFC 9110 section 15.6.3); if the answer had
 *   already started, the connection is cut instead.
 * - upstream response headers may total maxHeaderBytes (64 KB), so a long
 *   but legitimate Location still relays.
 * - one log line per forwarded request (http-kit's logWhenClosed); a
 *   failure logs only code, syscall and message — never the error's
 *   rawPacket/data (they hold the upstream's bytes: codes, tokens).
 */
import http from 'node:http';
import type { Middleware } from 'koa';
import { createProxyServer } from 'http-proxy-3';
import type { Logger } from 'pino';
import { logWhenClosed } from '@heroes/http-kit';
import { setForwardedHeaders } from './forwarded-headers.ts';

export const FORWARDED_PATHS = /^\/(?:auth(?:\/|$)|\.well-known\/)/;

export interface AuthForwarderOptions {
  target: string;
  trustProxy: boolean;
  timeoutMs: number;
  logger: Logger;
}

export interface AuthForwarder {
  middleware: Middleware;
  close(): void;
}

const UNAVAILABLE = Buffer.from(JSON.stringify({ error: 'authorization server unavailable' }));
const BAD_GATEWAY = Buffer.from(JSON.stringify({ error: 'bad gateway' }));

/** Largest upstream response header block relayed (Node's default is 16 KB). */
export const MAX_UPSTREAM_HEADER_BYTES = 64 * 1024;

interface UpstreamError {
  code?: unknown;
  syscall?: unknown;
  message?: unknown;
}

/** The fields of a proxy error that are safe to log: no payloads, no headers. */
export function describeUpstreamError(err: unknown): { code?: string; syscall?: string; message?: string } {
  const { code, syscall, message } = (typeof err === 'object' && err !== null ? err : {}) as UpstreamError;
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof syscall === 'string' ? { syscall } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

/** The upstream answered, but Node's HTTP parser rejected its response. */
function isUnparsableResponse(err: unknown): boolean {
  const code = (err as UpstreamError | undefined)?.code;
  return typeof code === 'string' && code.startsWith('HPE_');
}

/**
 * Usage:
 *   const forwarder = createAuthForwarder({ target: 'http://127.0.0.1:8889', trustProxy: false, timeoutMs: 30000, logger });
 *   app.use(forwarder.middleware); // before http-kit
 */
export function createAuthForwarder(options: AuthForwarderOptions): AuthForwarder {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const proxy = createProxyServer({
    target: options.target,
    agent,
    xfwd: false,
    changeOrigin: false,
    proxyTimeout: options.timeoutMs,
  });
  const { logger } = options;

  const middleware: Middleware = async function forwardToAuthServer(ctx, next) {
    if (!FORWARDED_PATHS.test(ctx.path)) return next();
    ctx.respond = false;
    const { req, res } = ctx;
    logWhenClosed(ctx, logger, { forwarded: true });
    setForwardedHeaders(req, options.trustProxy);
    await new Promise<void>((resolve) => {
      res.once('close', () => resolve());
      // http-proxy-3 builds the upstream http.request() options on top of
      // `ssl` (for http targets too); a fresh object per call, never shared.
      proxy.web(req, res, { ssl: { maxHeaderSize: MAX_UPSTREAM_HEADER_BYTES } }, (err) => {
        const badGateway = isUnparsableResponse(err);
        const message = badGateway ? 'authorization server response could not be relayed' : 'authorization server unavailable';
        logger.warn({ err: describeUpstreamError(err), path: ctx.path }, message);
        if (res.headersSent || res.destroyed) {
          res.destroy();
          return;
        }
        const [status, body] = badGateway ? [502, BAD_GATEWAY] : [503, UNAVAILABLE];
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
        res.end(body);
      });
    });
  };

  return {
    middleware,
    close() {
      proxy.close();
      agent.destroy();
    },
  };
}
