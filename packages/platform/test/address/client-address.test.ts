/**
 * The client-address rule (src/address/client-address.ts), driven with the request objects Node hands a server
 * (peers other than loopback cannot be made over real sockets here); the real-socket cases, nginx in front of the
 * servers, are in e2e/test/behind-proxy.test.ts.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { IncomingMessage } from 'node:http';
import test from 'ava';
import Koa from 'koa';
import {
  clientAddressOf,
  createClientAddress,
  createMetrics,
  createTrustTest,
  parseCidrList,
  parseProxyTrust,
  resolveClientAddress,
  SettingsError,
  loadSettings,
  defineSettings,
  NO_PROXY,
  type ProxyTrust,
} from '../../src/index.ts';

function request(remoteAddress: string, forwardedFor?: string | string[]): IncomingMessage {
  return { socket: { remoteAddress }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } } as unknown as IncomingMessage;
}

const resolve = (trust: ProxyTrust, peer: string, forwardedFor?: string | string[]) => resolveClientAddress(request(peer, forwardedFor), createTrustTest(trust));
const ONE_HOP: ProxyTrust = { kind: 'hops', hops: 1 };
const CLUSTER: ProxyTrust = { kind: 'networks', networks: parseCidrList('10.0.0.0/8') };

test('no trusted proxy: the socket peer, whatever X-Forwarded-For says', (t) => {
  t.deepEqual(resolve(NO_PROXY, '203.0.113.1', '198.51.100.7'), { address: '203.0.113.1', viaProxy: false, peerTrusted: false });
  t.deepEqual(resolve(NO_PROXY, '127.0.0.1', '198.51.100.7'), { address: '127.0.0.1', viaProxy: false, peerTrusted: false });
});

test('one hop (TRUST_PROXY=1): the right-most entry, whatever the client wrote to its left', (t) => {
  for (let i = 0; i < 5; i++) {
    t.deepEqual(resolve(ONE_HOP, '10.0.0.2', `10.9.${i}.1, 198.51.100.7`), { address: '198.51.100.7', viaProxy: true, peerTrusted: true });
  }
  t.is(resolve(ONE_HOP, '10.0.0.2', '127.0.0.1, 198.51.100.7').address, '198.51.100.7');
  t.deepEqual(resolve(ONE_HOP, '127.0.0.1'), { address: '127.0.0.1', viaProxy: false, peerTrusted: true }, 'no header: the peer itself');
});

test('two hops: the second entry from the right', (t) => {
  t.is(resolve({ kind: 'hops', hops: 2 }, '10.0.0.2', '6.6.6.6, 198.51.100.7, 10.0.0.9').address, '198.51.100.7');
});

test('networks: proxies inside them are skipped right to left; the first address outside is the client', (t) => {
  t.is(resolve(CLUSTER, '10.0.0.2', '6.6.6.6, 203.0.113.9, 10.0.0.3').address, '203.0.113.9');
  t.is(resolve(CLUSTER, '::ffff:10.0.0.2', '203.0.113.9, ::1').address, '203.0.113.9', 'loopback is a trusted proxy too');
  t.deepEqual(resolve(CLUSTER, '203.0.113.1', '10.0.0.3'), { address: '203.0.113.1', viaProxy: false, peerTrusted: false }, 'an untrusted peer names nobody');
  t.is(resolve(CLUSTER, '10.0.0.2', '10.0.0.4, 10.0.0.3').address, '10.0.0.4', 'all trusted: the left-most');
});

test('an entry that is not an address ends the walk at the proxy that handed it over', (t) => {
  t.is(resolve(CLUSTER, '10.0.0.2', '198.51.100.7, unknown').address, '10.0.0.2');
  t.is(resolve(ONE_HOP, '10.0.0.2', 'not-an-ip').address, '10.0.0.2');
});

test('ports, brackets and IPv4-mapped addresses: one spelling per client', (t) => {
  t.is(resolve(ONE_HOP, '10.0.0.2', '198.51.100.7:4711').address, '198.51.100.7');
  t.is(resolve(ONE_HOP, '10.0.0.2', '[2001:db8::1]:443').address, '2001:db8::1');
  t.is(resolve(ONE_HOP, '10.0.0.2', '2001:db8::2').address, '2001:db8::2');
  t.is(resolve(ONE_HOP, '10.0.0.2', '::ffff:198.51.100.7').address, '198.51.100.7');
  t.is(resolve(NO_PROXY, '::ffff:203.0.113.1').address, '203.0.113.1');
});

test('TRUST_PROXY: off, a hop count (true is one hop), or CIDR networks; anything else names what it must be', (t) => {
  for (const off of ['0', 'false', 'no', 'off']) t.deepEqual(parseProxyTrust(off), { kind: 'none' });
  for (const one of ['1', 'true', 'yes', 'on']) t.deepEqual(parseProxyTrust(one), { kind: 'hops', hops: 1 });
  t.deepEqual(parseProxyTrust('2'), { kind: 'hops', hops: 2 });
  t.deepEqual(parseProxyTrust('10.0.0.0/8, fd00::/8'), { kind: 'networks', networks: parseCidrList('10.0.0.0/8,fd00::/8') });
  const settings = defineSettings({ trustProxy: { env: 'TRUST_PROXY', parse: parseProxyTrust, default: NO_PROXY, doc: 'proxies' } });
  for (const bad of ['maybe', '11', '10.0.0.0/33']) {
    const error = t.throws(() => loadSettings(settings, { TRUST_PROXY: bad }), { instanceOf: SettingsError });
    t.regex(error!.message, /TRUST_PROXY must be/);
  }
});

test('/metrics judges a forwarded request by its original client: loopback and private proxies do not count', async (t) => {
  const app = new Koa();
  app.use(createClientAddress(ONE_HOP));
  app.use(createMetrics({ allow: parseCidrList('192.0.2.0/24') }).middleware);
  const server = http.createServer(app.callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  t.teardown(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const scrape = async (forwardedFor?: string) => (await fetch(`${base}/metrics`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} })).status;
  t.is(await scrape(), 200, 'a loopback caller, straight');
  t.is(await scrape('127.0.0.1'), 403, 'forwarded for a loopback client: the proxy\'s neighbour, not ours');
  t.is(await scrape('192.0.2.9, 203.0.113.5'), 403, 'the allowed address was written by the client');
  t.is(await scrape('203.0.113.5, 192.0.2.9'), 200, 'forwarded for a client METRICS_ALLOW admits');
});

test('the verdict travels on ctx.state; several X-Forwarded-For lines read as one list, as Node joins them', async (t) => {
  const app = new Koa();
  app.use(createClientAddress(ONE_HOP));
  app.use((ctx) => {
    ctx.body = { state: ctx.state, ofCtx: clientAddressOf(ctx), ip: ctx.ip };
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  t.teardown(() => server.close());
  const socket = net.connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.end('GET / HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 6.6.6.6\r\nX-Forwarded-For: 198.51.100.7\r\nConnection: close\r\n\r\n');
  let raw = '';
  for await (const chunk of socket) raw += String(chunk);
  const client = { address: '198.51.100.7', viaProxy: true, peerTrusted: true };
  t.deepEqual(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)), { state: { clientAddress: client }, ofCtx: client, ip: '198.51.100.7' });
});

test('a request the rule never judged (a management port): the peer, forwarded when it carries X-Forwarded-For', (t) => {
  const req = { socket: { remoteAddress: '::ffff:127.0.0.1' }, headers: { 'x-forwarded-for': '192.0.2.9' } } as unknown as IncomingMessage;
  t.deepEqual(clientAddressOf({ state: {}, req }), { address: '127.0.0.1', viaProxy: true, peerTrusted: false });
});
