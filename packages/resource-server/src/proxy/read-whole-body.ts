/**
 * Reads a forwarded request's whole body before an upstream connection is taken (docs/http.md, "Fair forwarding"),
 * so a slow client holds only its own socket; bytes kept as they came. Outcomes: `{ body }`, `'timeout'` (408),
 * `'too-large'` (413), `'aborted'`.
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
