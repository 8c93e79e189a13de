/**
 * Reads a forwarded request's whole body at the edge, before an upstream
 * connection is taken (docs/http.md, "Fair forwarding"): a client that
 * sends its body slowly, or never, holds only its own socket and slot,
 * never a connection to the authorization server. The bytes are kept as
 * they came (no decoding: the authorization server judges them).
 *
 * Outcomes:
 * - `{ body }`: every byte, within `timeoutMs` and at most `maxBytes`;
 * - `'timeout'`: not all there after `timeoutMs` (the caller answers 408);
 * - `'too-large'`: a chunked body grew past `maxBytes` (413; an announced
 *   length over it is refused before this is called);
 * - `'aborted'`: the client went away.
 *
 * Usage: `const read = await readWholeBody(req, { maxBytes: 65_536, timeoutMs: 10_000 });`
 */
import type { IncomingMessage } from 'node:http';

export type BodyRead = { body: Buffer } | 'timeout' | 'too-large' | 'aborted';

export function readWholeBody(req: IncomingMessage, limits: { maxBytes: number; timeoutMs: number }): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let length = 0;
    const finish = (outcome: BodyRead) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('aborted', onAborted).off('error', onAborted).off('close', onClose);
      // Stop reading: the rest (if any) is left to the server's lingering close.
      if (outcome !== 'aborted' && typeof outcome === 'string') req.pause();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > limits.maxBytes) return finish('too-large');
      chunks.push(chunk);
    };
    const onEnd = () => finish({ body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length) });
    const onAborted = () => finish('aborted');
    const onClose = () => {
      if (!req.complete) finish('aborted');
    };
    const timer = setTimeout(() => finish('timeout'), limits.timeoutMs);
    req.on('data', onData).on('end', onEnd).on('aborted', onAborted).on('error', onAborted).on('close', onClose);
  });
}

/** Whether the request announces a body (RFC 9112 section 6.3): a Content-Length over 0, or a Transfer-Encoding. */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
