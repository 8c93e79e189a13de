/**
 * X-Forwarded-* are believed only from the edge (loopback, or
 * AUTH_TRUSTED_PROXIES): common/forwarding-filter.ts. Peers other than
 * loopback cannot be produced over real sockets here, so the filter is
 * driven with the request objects Node hands to the server.
 */
import test from 'ava';
import type { IncomingMessage } from 'node:http';
import { parseCidrList } from '@heroes/platform';
import { createForwardingFilter } from '../../src/common/forwarding-filter.ts';

function request(remoteAddress: string): IncomingMessage {
  return {
    socket: { remoteAddress },
    headers: {
      host: 'auth.internal:8889',
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-port': '443',
      forwarded: 'for=203.0.113.9;host=evil.example',
    },
  } as unknown as IncomingMessage;
}

const FORWARDING = ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host', 'x-forwarded-port', 'forwarded'];

for (const peer of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) {
  test(`a loopback peer (${peer}, where npm start runs the edge) keeps its forwarding headers`, (t) => {
    const req = request(peer);
    createForwardingFilter([])(req);
    for (const name of FORWARDING) t.truthy(req.headers[name], name);
  });
}

for (const peer of ['10.1.2.3', '192.168.0.7', '::ffff:10.1.2.3', '2001:db8::1']) {
  test(`any other peer (${peer}) loses them by default: the request is read as it arrived`, (t) => {
    const req = request(peer);
    createForwardingFilter([])(req);
    for (const name of FORWARDING) t.is(req.headers[name], undefined, name);
    t.is(req.headers.host, 'auth.internal:8889');
  });
}

test('AUTH_TRUSTED_PROXIES names the edge: its headers are kept, others still dropped', (t) => {
  const filter = createForwardingFilter(parseCidrList('10.0.0.0/8'));
  const edge = request('10.1.2.3');
  filter(edge);
  t.is(edge.headers['x-forwarded-host'], 'evil.example');
  const stranger = request('192.168.0.7');
  filter(stranger);
  t.is(stranger.headers['x-forwarded-host'], undefined);
});
