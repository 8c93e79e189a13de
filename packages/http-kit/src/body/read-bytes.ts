/**
 * Reads the raw body with a hard byte limit through raw-body (koa-body's own reader; koa-body cannot use our codec
 * registry or charset rules). Over `limit` → 413, at once and with `Connection: close` when Content-Length
 * announces it; after any other failure the rest is read and discarded so keep-alive survives (closed if the
 * client still sends after DEFAULTS.drainTimeoutMs); a body unlike its Content-Length, or aborted → 400.
 */
import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { DEFAULTS } from '../defaults.ts';
import { BadRequestError, InternalServerError, PayloadTooLargeError } from '../errors/client-errors.ts';

export const TOO_LARGE = 'entity length exceeds maximum';

export async function readBytes(req: IncomingMessage, limit: number): Promise<Buffer> {
  assertDeclaredLength(req, limit);
  try {
    return await getRawBody(req, { length: req.headers['content-length'] ?? null, limit });
  } catch (cause) {
    const type = (cause as { type?: unknown }).type;
    if (type === 'stream.not.readable' || type === 'stream.encoding.set') {
      throw new InternalServerError('request body was already read', { cause });
    }
    const drained = await drain(req, DEFAULTS.drainTimeoutMs);
    // Carried by the error, since the error handler replaces response headers.
    const headers: Record<string, string> = drained ? {} : { Connection: 'close' };
    if (type === 'entity.too.large') throw new PayloadTooLargeError(TOO_LARGE, { cause, headers });
    if (type === 'request.size.invalid') throw new BadRequestError('request entity could not be decoded', { cause, headers });
    if (type === 'request.aborted') throw new BadRequestError('request aborted', { cause, headers });
    throw cause;
  }
}

/**
 * 413 with `Connection: close` when the request announces a Content-Length
 * over `limit` (a chunked body has none: it is counted while reading).
 * Nothing is read; Node closes the connection after the answer.
 */
export function assertDeclaredLength(req: IncomingMessage, limit: number): void {
  const declared = declaredLength(req);
  if (declared !== undefined && declared > limit) {
    throw new PayloadTooLargeError(TOO_LARGE, { headers: { Connection: 'close' } });
  }
}

/** The Content-Length of a request without Transfer-Encoding, else undefined. */
export function declaredLength(req: IncomingMessage): number | undefined {
  const header = req.headers['content-length'];
  if (header === undefined || req.headers['transfer-encoding'] !== undefined) return undefined;
  const length = Number(header);
  return Number.isFinite(length) ? length : undefined;
}

/** Discards the rest of the request; resolves true when it ended in time. */
function drain(req: IncomingMessage, timeoutMs: number): Promise<boolean> {
  if (req.readableEnded) return Promise.resolve(true);
  if (req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      req.off('end', onEnd);
      req.off('close', onClose);
      resolve(ended);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(req.readableEnded);
    const timer = setTimeout(() => finish(false), timeoutMs);
    req.on('end', onEnd);
    req.on('close', onClose);
    req.on('error', () => undefined);
    req.resume();
  });
}
