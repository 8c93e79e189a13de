/**
 * `Expect: 100-continue` (RFC 9110 section 10.1.1) with a size check: the
 * server's 'checkContinue' event, so the client is told 413 before it sends
 * a body that could never be accepted.
 *
 * Rules:
 * - Content-Length over `maxBodyBytes` → 413 `{"error":"entity length exceeds
 *   maximum"}` with `Connection: close` instead of `100 Continue`; the body
 *   is never read and the connection is closed after the answer;
 * - any other request (within the limit, or chunked: counted while reading)
 *   gets `100 Continue` and goes on to the app as usual.
 */
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import { declaredLength, NO_SNIFF, TOO_LARGE } from '@heroes/http-kit';

const limits = new WeakMap<Server, number>();
const BODY = Buffer.from(JSON.stringify({ error: TOO_LARGE }), 'utf8');

export function refuseOversizedContinue(server: Server, maxBodyBytes: number, logger?: Logger): void {
  const installed = limits.has(server);
  limits.set(server, maxBodyBytes);
  if (installed) return;
  server.on('checkContinue', (req, res) => {
    const declared = declaredLength(req);
    if (declared !== undefined && declared > (limits.get(server) ?? maxBodyBytes)) {
      res.writeHead(413, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': BODY.length,
        ...NO_SNIFF,
        Connection: 'close',
      });
      res.end(BODY);
      logger?.info({ method: req.method, path: (req.url ?? '').split('?')[0], status: 413, ms: 0 }, 'request');
      return;
    }
    res.writeContinue();
    server.emit('request', req, res);
  });
}
