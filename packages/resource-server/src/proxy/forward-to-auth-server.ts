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
 *   if its answer had already started, the connection is cut instead.
 * - one log line per forwarded request, as http-kit logs the others.
 */
import http from 'node:http';
import type { Middleware } from 'koa';
import { createProxyServer } from 'http-proxy-3';
import type { Logger } from 'pino';
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
    const started = performance.now();
    setForwardedHeaders(req, options.trustProxy);
    await new Promise<void>((resolve) => {
      res.once('close', () => {
        const ms = Math.round((performance.now() - started) * 100) / 100;
        // As http-kit logs: the status actually sent (null if none), aborted when unfinished.
        const line = { method: req.method, path: ctx.path, status: res.headersSent ? res.statusCode : null, ms, forwarded: true };
        logger.info(res.writableFinished ? line : { ...line, aborted: true }, 'request');
        resolve();
      });
      proxy.web(req, res, {}, (err) => {
        logger.warn({ err, path: ctx.path }, 'authorization server unavailable');
        if (res.headersSent || res.destroyed) {
          res.destroy();
          return;
        }
        res.writeHead(503, { 'content-type': 'application/json; charset=utf-8', 'content-length': UNAVAILABLE.length });
        res.end(UNAVAILABLE);
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
