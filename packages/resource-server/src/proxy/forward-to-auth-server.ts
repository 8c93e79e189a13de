/**
 * The edge's forwarder: `/auth`, `/auth/*` and `/.well-known/*` (but the edge's own RFC 9728 metadata) go to the
 * authorization server through http-proxy-3, before http-kit, bodies and answers passed as they are. The path is judged
 * after normalisation (a forwarded-looking path that normalises elsewhere → 404); fair forwarding per docs/http.md;
 * X-Forwarded-* per forwarded-headers.ts. Unreachable or silent → 503 with Retry-After, an unparsable answer → 502
 * (RFC 9110 section 15.6.3), a Content-Length over the limit → 413. Failures log code and syscall, never upstream bytes.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { createProxyServer } from 'http-proxy-3';
import { declaredLength, DEFAULTS, NO_SNIFF, TOO_LARGE } from '@heroes/http-kit';
import { inSpan, logWhenClosed, nameRoute } from '@heroes/platform';
import type { Logger } from 'pino';
import { AddressSlots } from './address-slots.ts';
import { setForwardedHeaders } from './forwarded-headers.ts';
import { EDGE_HOLDS_REFUSALS, holdAnswer, takeHold } from './held-refusals.ts';
import { announcesBody, readWholeBody } from './read-whole-body.ts';
import { RepeatedRefusals } from './repeated-refusals.ts';
import { AccountLanes } from './account-lanes.ts';
import { isOwnNormalForm, normalizePath } from './normalize-path.ts';

export const FORWARDED_PATHS = /^\/(?:auth(?:\/|$)|\.well-known\/(?!oauth-protected-resource(?:\/|$)))/;

export interface AuthForwarderOptions {
  target: string;
  timeoutMs: number;
  /** Largest request body forwarded, bytes. */
  maxBodyBytes: number;
  /** Longest time a forwarded request's body may take to arrive, ms (then 408). */
  bodyTimeoutMs: number;
  /** Connections to the authorization server (the pool's bound). */
  maxSockets: number;
  /** Forwarded requests in flight per client address (then 429). */
  perAddressMax: number;
  logger: Logger;
  /** A delayed refusal was sent after its hold: decided by the authorization server (held here) or by the edge (a repeat). */
  onRefusalAnswered?: (decidedBy: RefusalDecider) => void;
}

/** Who decided a refusal the edge answered after its hold. */
export type RefusalDecider = 'auth_server' | 'edge';

export interface AuthForwarder {
  middleware: Middleware;
  /** Forwarded requests in flight per client address. */
  slots: AddressSlots;
  /** Refused logins whose repeats the edge answers itself. */
  refusals: RepeatedRefusals;
  close(): void;
}

const UNAVAILABLE = Buffer.from(JSON.stringify({ error: 'authorization server unavailable' }));
const BAD_GATEWAY = Buffer.from(JSON.stringify({ error: 'bad gateway' }));
const TOO_LARGE_BODY = Buffer.from(JSON.stringify({ error: TOO_LARGE }));
const NOT_FOUND = Buffer.from(JSON.stringify({ error: 'not found' }));
const BUSY_ADDRESS = Buffer.from(JSON.stringify({ error: 'too many concurrent requests from this address' }));
const BODY_TIMEOUT = Buffer.from(JSON.stringify({ error: 'request body not received in time' }));
const JSON_TYPE = 'application/json; charset=utf-8';

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
 *   const forwarder = createAuthForwarder({ target: 'http://127.0.0.1:8889', timeoutMs: 30000, maxBodyBytes: 10485760, logger });
 *   app.use(forwarder.middleware); // before http-kit
 */
export function createAuthForwarder(options: AuthForwarderOptions): AuthForwarder {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.maxSockets });
  const proxy = createProxyServer({
    target: options.target,
    agent,
    xfwd: false,
    changeOrigin: false,
    proxyTimeout: options.timeoutMs,
    // Answers are relayed below (relayAnswer): a held refusal must not be piped at once.
    selfHandleResponse: true,
  });
  const { logger } = options;
  const refusalAnswered = options.onRefusalAnswered ?? (() => {});
  const slots = new AddressSlots(options.perAddressMax);
  const refusals = new RepeatedRefusals();
  const lanes = new AccountLanes();
  /** The login attempt of each forwarded request that makes one, and when it was forwarded. */
  const attempts = new WeakMap<http.IncomingMessage, { attempt: string; sentAt: number }>();
  /** The upstream's answer to each relayed response, once it has come. */
  const answers = new WeakMap<http.ServerResponse, http.IncomingMessage>();
  /** Gives back the client address's slot of each forwarded request. */
  const releases = new WeakMap<http.IncomingMessage, () => void>();
  proxy.on('proxyRes', (proxyRes, req, res) => {
    answers.set(res, proxyRes);
    // Answered before the body was all read: this connection carries no next request.
    if (!req.complete) proxyRes.headers.connection = 'close';
    const release = releases.get(req);
    const { holdMs, refusedMs } = takeHold(proxyRes);
    if (holdMs === 0) {
      proxyRes.once('end', () => release?.());
      writeAnswerHead(req, res, proxyRes);
      proxyRes.pipe(res);
      return;
    }
    holdAnswer(proxyRes, res, holdMs, {
      onRead: (body) => {
        release?.();
        const made = attempts.get(req);
        if (made && refusedMs > 0) refusals.remember(made.attempt, made.sentAt, { status: proxyRes.statusCode ?? 429, headers: proxyRes.headers, body }, holdMs, refusedMs);
      },
      send: (body) => {
        writeAnswerHead(req, res, proxyRes);
        res.setHeader('content-length', body.length);
        res.end(body);
        refusalAnswered('auth_server');
      },
      stream: () => {
        writeAnswerHead(req, res, proxyRes);
        proxyRes.pipe(res);
      },
    });
  });

  // Not async, and no URL parse, for a path that is its own normal form and not forwarded (GET /heroes): it cannot normalise into a forwarded one.
  const middleware: Middleware = function forwardToAuthServer(ctx, next) {
    const path = ctx.path;
    if (isOwnNormalForm(path) && !FORWARDED_PATHS.test(path)) return next();
    return judgeAndForward(ctx, next);
  };

  const judgeAndForward: Middleware = async function judgeAndForward(ctx, next) {
    const judged = normalizePath(ctx.path);
    const forwarded = judged !== undefined && FORWARDED_PATHS.test(judged);
    if (!forwarded && !FORWARDED_PATHS.test(ctx.path)) return next();
    if (!forwarded) {
      ctx.status = 404;
      ctx.type = JSON_TYPE;
      ctx.body = NOT_FOUND;
      return;
    }
    nameRoute(ctx, judged.startsWith('/auth') ? '/auth/*' : '/.well-known/*');
    const declared = declaredLength(ctx.req);
    const tooLarge = declared !== undefined && declared > options.maxBodyBytes;
    const logged: Record<string, unknown> = { forwarded: !tooLarge };
    logWhenClosed(ctx, logger, logged);
    if (tooLarge) return refuse(ctx, 413, TOO_LARGE_BODY, { Connection: 'close' });
    const release = slots.take(ctx.ip);
    if (release === undefined) return refuse(ctx, 429, BUSY_ADDRESS, { 'Retry-After': '1' });
    const { req, res } = ctx;
    res.once('close', release);
    releases.set(req, release);
    let buffer: Readable | undefined;
    if (announcesBody(req)) {
      const read = await readWholeBody(req, { maxBytes: options.maxBodyBytes, timeoutMs: options.bodyTimeoutMs });
      if (read === 'aborted') {
        ctx.respond = false;
        res.destroy();
        return;
      }
      if (read === 'timeout') return refuse(ctx, 408, BODY_TIMEOUT, { Connection: 'close' });
      if (read === 'too-large') return refuse(ctx, 413, TOO_LARGE_BODY, { Connection: 'close' });
      const login = refusals.attemptOf(ctx.ip, judged, req.headers, read.body);
      const refused = login === undefined ? undefined : refusals.recall(login.attempt);
      if (refused) {
        release();
        logged['forwarded'] = false;
        logged['repeatedRefusal'] = true;
        ctx.respond = false;
        refusals.answerAfterHold(refused, res, () => refusalAnswered('edge'));
        return;
      }
      if (login !== undefined) {
        const leave = await lanes.enter(login.account());
        if (res.destroyed) {
          leave();
          ctx.respond = false;
          return;
        }
        // The lane is left once the upstream answer is read (the slot's release), or the client has gone.
        releases.set(req, () => {
          release();
          leave();
        });
        res.once('close', leave);
        attempts.set(req, { attempt: login.attempt, sentAt: performance.now() });
      }
      // Sent upstream with its length: the authorization server reads one complete body.
      delete req.headers['transfer-encoding'];
      req.headers['content-length'] = String(read.body.length);
      buffer = Readable.from([read.body]);
    }
    ctx.respond = false;
    req.url = ctx.querystring ? `${judged}?${ctx.querystring}` : judged;
    setForwardedHeaders(ctx);
    req.headers[EDGE_HOLDS_REFUSALS] = '1';
    // A span of its own (docs/operations.md, "Tracing"): the upstream call's client span and the authorization server's spans are its children.
    await inSpan('forward to authorization server', () => new Promise<void>((resolve) => {
      res.once('close', () => resolve());
      // http-proxy-3 builds the upstream http.request() options on top of
      // `ssl` (for http targets too); a fresh object per call, never shared.
      proxy.web(req, res, { ssl: { maxHeaderSize: MAX_UPSTREAM_HEADER_BYTES }, ...(buffer ? { buffer } : {}) }, (err) => {
        const answer = answers.get(res);
        if (answer) {
          relayEarlyAnswer(req, res, answer);
          logger.info({ err: describeUpstreamError(err), path: ctx.path }, 'authorization server answered before reading the whole request');
          return;
        }
        const badGateway = isUnparsableResponse(err);
        const message = badGateway ? 'authorization server response could not be relayed' : 'authorization server unavailable';
        logger.warn({ err: describeUpstreamError(err), path: ctx.path }, message);
        if (res.headersSent || res.destroyed) {
          res.destroy();
          return;
        }
        const [status, body] = badGateway ? [502, BAD_GATEWAY] : [503, UNAVAILABLE];
        const retryAfter = status === 503 ? { 'retry-after': String(DEFAULTS.retryAfterSeconds) } : {};
        res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': body.length, ...retryAfter, ...NO_SNIFF });
        res.end(body);
      });
    }));
  };

  return {
    middleware,
    slots,
    refusals,
    close() {
      proxy.close();
      agent.destroy();
    },
  };
}

function refuse(ctx: Context, status: number, body: Buffer, headers: Record<string, string>): void {
  ctx.set(headers);
  ctx.status = status;
  ctx.type = JSON_TYPE;
  ctx.body = body;
}

/** The upstream answer's status and headers on `res` (what http-proxy-3 would copy; Transfer-Encoding is per hop). */
function writeAnswerHead(req: http.IncomingMessage, res: http.ServerResponse, proxyRes: http.IncomingMessage): void {
  const headers = proxyRes.headers;
  delete headers['transfer-encoding'];
  if (req.httpVersion === '1.0') headers.connection = req.headers.connection ?? 'close';
  else if (!headers.connection) headers.connection = req.headers.connection ?? 'keep-alive';
  res.statusCode = proxyRes.statusCode ?? 502;
  if (proxyRes.statusMessage) res.statusMessage = proxyRes.statusMessage;
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
}

/**
 * The upload failed after the authorization server had answered: stop
 * forwarding and discard the rest of the body (the edge's lingering close
 * bounds it); the answer is relayed as it came, or cut if it was itself
 * cut short.
 */
function relayEarlyAnswer(req: http.IncomingMessage, res: http.ServerResponse, answer: http.IncomingMessage): void {
  req.unpipe();
  req.resume();
  if (!answer.complete && !res.writableFinished) res.destroy();
}
