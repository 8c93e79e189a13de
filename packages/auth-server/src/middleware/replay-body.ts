/**
 * Hands a rewritten request body to oidc-provider, which reads the raw
 * request stream itself (lib/shared/selective_body.js: `req.readable`,
 * `req.iterator()`, Content-Length). After we consumed the stream, the
 * request is made to look unread again, with the new bytes.
 */
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';

export function replayBody(req: IncomingMessage, body: Buffer): void {
  req.headers['content-length'] = String(body.length);
  delete req.headers['transfer-encoding'];
  Object.defineProperty(req, 'readable', { value: true, configurable: true });
  Object.defineProperty(req, 'readableEncoding', { value: null, configurable: true });
  Object.defineProperty(req, 'iterator', {
    configurable: true,
    value: (options?: { destroyOnReturn?: boolean }) => Readable.from([body]).iterator(options),
  });
}
