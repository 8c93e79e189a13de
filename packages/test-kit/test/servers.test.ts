import http from 'node:http';
import net from 'node:net';
import test from 'ava';
import { acceptedConnections, captureJsonLines, listenLocally, postFormBody, waitFor } from '../src/index.ts';

test('captureJsonLines parses every line, also several in one write and none for an empty one', (t) => {
  const { lines, stream } = captureJsonLines();
  stream.write('{"msg":"a"}\n{"msg":"b","n":1}\n');
  stream.write('{"msg":"c"}\n');
  stream.write('');
  t.deepEqual(lines, [{ msg: 'a' }, { msg: 'b', n: 1 }, { msg: 'c' }]);
});

test('listenLocally serves on 127.0.0.1 and close() ends keep-alive connections too', async (t) => {
  const served = await listenLocally(http.createServer((_req, res) => res.end('hi')));
  t.is(served.url, `http://127.0.0.1:${served.port}`);
  const agent = new http.Agent({ keepAlive: true });
  const text = await new Promise<string>((resolve) => http.get(served.url, { agent }, (res) => {
    let body = '';
    res.on('data', (chunk: Buffer) => (body += chunk.toString()));
    res.on('end', () => resolve(body));
  }));
  t.is(text, 'hi');
  await served.close(); // would wait for the idle keep-alive connection otherwise
  agent.destroy();
});

test('postFormBody sends a body with Content-Length or chunked; an early answer that closes the connection is "reset" or its status', async (t) => {
  const seen: Array<{ length: string | undefined; chunked: boolean; bytes: number }> = [];
  const served = await listenLocally(http.createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      seen.push({ length: req.headers['content-length'], chunked: req.headers['transfer-encoding'] === 'chunked', bytes });
      res.end();
    });
  }));
  t.teardown(served.close);
  const body = Buffer.alloc(3 << 20, '+');
  t.is(await postFormBody(served.url, body), 200);
  t.is(await postFormBody(served.url, body, { chunked: true }), 200);
  t.deepEqual(seen, [{ length: String(body.length), chunked: false, bytes: body.length }, { length: undefined, chunked: true, bytes: body.length }]);

  const early = await listenLocally(http.createServer((req, res) => {
    res.writeHead(413, { connection: 'close' }).end();
    req.socket.destroySoon();
  }));
  t.teardown(early.close);
  const status = await postFormBody(early.url, Buffer.alloc(10 << 20, '+'));
  t.true(status === 'reset' || status === 413, String(status));
});

test('acceptedConnections counts the connections a process has accepted on a port', async (t) => {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  t.teardown(() => server.close());
  t.is(acceptedConnections(process.pid, port), 0);
  const sockets = Array.from({ length: 3 }, () => net.connect(port, '127.0.0.1'));
  t.teardown(() => sockets.forEach((socket) => socket.destroy()));
  // This process holds both ends; only the server's side is on `port`.
  t.is(await waitFor(() => acceptedConnections(process.pid, port) === 3 && 3), 3);
});
