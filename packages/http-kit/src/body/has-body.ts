/**
 * Whether a request carries a body: a Content-Length above 0, or chunked
 * transfer coding (Aqueduct: "empty means no Content-Length > 0 and not chunked").
 */
import type { IncomingMessage } from 'node:http';

export function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = Number(req.headers['content-length']);
  return Number.isFinite(length) && length > 0;
}
