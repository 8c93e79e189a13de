/**
 * `Expect: 100-continue` with a size check ('checkContinue', RFC 9110 section 10.1.1): a Content-Length over
 * `maxBodyBytes` gets 413 JSON with `Connection: close` instead of `100 Continue` and the body is never read; any
 * other request gets `100 Continue` and goes on (chunked bodies are counted while read).
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
