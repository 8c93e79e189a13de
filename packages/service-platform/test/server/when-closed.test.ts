/**
 * whenClosed (server/when-closed.ts): every callback of a response runs
 * once, in order, when it closes, through one 'close' listener.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import test from 'ava';
import { whenClosed } from '../../src/server/when-closed.ts';

async function serveOnce(handler: (res: http.ServerResponse) => void): Promise<{ url: string; close(): void }> {
  const server = http.createServer((_req, res) => handler(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

test('callbacks run once each, in the order registered, on one close listener', async (t) => {
  const ran: string[] = [];
  let listeners = -1;
  let closed!: () => void;
  const allRan = new Promise<void>((resolve) => (closed = resolve));
  const { url, close } = await serveOnce((res) => {
    whenClosed(res, () => ran.push('first'));
    whenClosed(res, () => ran.push('second'));
    whenClosed(res, () => {
      ran.push('third');
      closed();
    });
    listeners = res.listenerCount('close');
    res.end('ok');
  });
  t.teardown(close);
  t.is(await (await fetch(url)).text(), 'ok');
  await allRan;
  t.is(listeners, 1);
  t.deepEqual(ran, ['first', 'second', 'third']);
});

test('a callback that throws does not keep the later ones from running; its error is thrown after them', (t) => {
  const res = new http.ServerResponse(new http.IncomingMessage(new net.Socket()));
  const ran: string[] = [];
  whenClosed(res, () => {
    ran.push('first');
    throw new Error('first failed');
  });
  whenClosed(res, () => ran.push('second'));
  t.throws(() => res.emit('close'), { message: 'first failed' });
  t.deepEqual(ran, ['first', 'second']);
  res.emit('close');
  t.deepEqual(ran, ['first', 'second'], 'once');
});

test('a single callback runs when the client goes away before the answer', async (t) => {
  let finished: boolean | undefined;
  const closed = new Promise<void>((resolve) => {
    void serveOnce((res) => {
      whenClosed(res, () => {
        finished = res.writableFinished;
        resolve();
      });
      res.socket?.destroy();
    }).then(({ url, close }) => {
      t.teardown(close);
      fetch(url).catch(() => undefined);
    });
  });
  await closed;
  t.false(finished);
});
