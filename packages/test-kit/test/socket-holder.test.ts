/**
 * The socket holder's guessers (raw sockets, a small answer reader) count every answer once, whatever its framing:
 * Content-Length, chunked, or an answer that closes its connection (the next guess then opens a new one).
 */
import http from 'node:http';
import test from 'ava';
import { listenLocally, startSocketHolder, waitFor, type HolderStatus } from '../src/index.ts';

test('repeating guessers get every answer once: Content-Length, chunked and Connection: close alike, each from its own address', async (t) => {
  const sent: Record<string, number> = {};
  const addresses = new Set<string>();
  let received = 0;
  const served = await listenLocally(http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const n = received++;
      addresses.add(String(req.headers['x-forwarded-for']));
      const body = Buffer.concat(chunks).toString('utf8');
      if (n % 3 === 0) {
        res.writeHead(429, { 'content-length': Buffer.byteLength(body) });
        res.end(body);
      } else if (n % 3 === 1) {
        res.writeHead(400, { 'transfer-encoding': 'chunked' });
        res.write(body.slice(0, 3));
        res.end(body.slice(3));
      } else {
        res.writeHead(503, { connection: 'close', 'content-length': 2 });
        res.end('no');
      }
      const status = String(res.statusCode);
      sent[status] = (sent[status] ?? 0) + 1;
    });
  }));
  const holder = await startSocketHolder();
  t.teardown(async () => {
    await holder.stop();
    await served.close();
  });
  await holder.send({ cmd: 'guess', url: served.url, count: 20, path: '/auth/token', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password&password=guess', repeatForMs: 600_000 });
  await waitFor(async () => (await holder.send<HolderStatus>({ cmd: 'status' })).fewestAnswers >= 5, { message: 'every guesser answered five times' });
  await holder.send({ cmd: 'stop-guessing' });
  const status = await waitFor(async () => {
    const now = await holder.send<HolderStatus>({ cmd: 'status' });
    return now.guessing === 0 && now.guessesAnswered === now.guesses ? now : undefined;
  }, { message: 'the last guesses answered' });
  t.is(status.guesses, received, 'each request counted once');
  t.deepEqual(status.guessStatuses, sent, 'each answer read once, by its status');
  t.is(addresses.size, 20, 'an address per guesser');
});
