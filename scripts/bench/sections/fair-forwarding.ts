/**
 * Fair forwarding (docs/http.md): the sign-in path through the edge while
 * attackers hold it, beside the same requests idle.
 * - a second edge process in front of the same authorization server, with
 *   TRUST_PROXY=1, so each attacker socket has an address of its own
 *   (X-Forwarded-For), as a botnet behind an ingress would;
 * - idle: the metadata document and a real login (password grant), one
 *   after the other for BENCH_DURATION s;
 * - attack: 300 uploads send `POST /auth/token` headers with Content-Length
 *   1000 and only `grant_type=password`, then stay silent; then 1,000
 *   connections guess an account the throttle refuses (each refusal held
 *   LOGIN_REFUSAL_DELAY_MS, 1 s), one guess after another; the same
 *   requests measured again for BENCH_DURATION s.
 * Goal: p99 under attack ≤ idle p99 + 100 ms, every answer 200.
 * Leaves behind: the throttled account (its own row).
 */
import crypto from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { basic, expectOk, post, sleep } from '../lib/http.ts';
import { freePort, spawnNode, stopProcess, waitForPort } from '../lib/processes.ts';
import { serverEntry } from '../lib/stack.ts';
import type { BenchContext } from '../lib/context.ts';
import type { Section } from './section.ts';

const STALLED = 300;
const GUESSERS = 1_000;
const FORM = 'application/x-www-form-urlencoded';

interface Latencies {
  metadata: number[];
  login: number[];
  failed: number;
}

const address = (prefix: string, i: number) => `${prefix}.${Math.floor(i / 250)}.${(i % 250) + 1}`;

/** Metadata, then a real login, over and over until `until`, from one address of their own. */
async function signIns(ctx: BenchContext, base: string, user: { username: string; password: string }, until: number): Promise<Latencies> {
  const result: Latencies = { metadata: [], login: [], failed: 0 };
  const headers = { 'x-forwarded-for': '198.51.100.77' };
  while (performance.now() < until) {
    let started = performance.now();
    const metadata = await fetch(`${base}/.well-known/oauth-authorization-server`, { headers });
    await metadata.arrayBuffer();
    result.metadata.push(performance.now() - started);
    started = performance.now();
    const login = await post(`${base}/auth/token`, { ...headers, authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': FORM },
      new URLSearchParams({ grant_type: 'password', ...user }).toString());
    await login.arrayBuffer();
    result.login.push(performance.now() - started);
    if (metadata.status !== 200 || login.status !== 200) result.failed++;
  }
  return result;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const describe = (values: number[]) => `p50 ${percentile(values, 50).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms (${values.length})`;

/** `STALLED` sockets that send a POST's headers and 19 of its 1000 body bytes, then nothing. */
function stallUploads(base: string): net.Socket[] {
  const { hostname, port, host } = new URL(base);
  return Array.from({ length: STALLED }, (_, i) => {
    const socket = net.connect(Number(port), hostname);
    socket.on('error', () => {});
    socket.write(`POST /auth/token HTTP/1.1\r\nHost: ${host}\r\nX-Forwarded-For: ${address('10.1', i)}\r\nContent-Type: ${FORM}\r\nContent-Length: 1000\r\n\r\ngrant_type=password`);
    return socket;
  });
}

/** `GUESSERS` loops, each from its own address, guessing `username`'s password until `stopped()`. */
function guess(ctx: BenchContext, base: string, username: string, stopped: () => boolean): { done: Promise<void>; statuses: Map<number, number> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: GUESSERS });
  const statuses = new Map<number, number>();
  const body = new URLSearchParams({ grant_type: 'password', username, password: 'a guess' }).toString();
  const once = (i: number) => new Promise<void>((resolve) => {
    const req = http.request(`${base}/auth/token`, {
      method: 'POST',
      agent,
      headers: { authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': FORM, 'content-length': body.length, 'x-forwarded-for': address('10.2', i) },
    }, (res) => {
      statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1);
      res.resume();
      res.on('end', resolve);
    });
    req.on('error', () => resolve());
    req.end(body);
  });
  const done = Promise.all(Array.from({ length: GUESSERS }, async (_, i) => {
    while (!stopped()) await once(i);
  })).then(() => agent.destroy());
  return { done, statuses };
}

export const fairForwarding: Section = {
  name: 'fair-forwarding',
  async run(ctx) {
    if (ctx.resourceEnv === undefined) return [{ figure: 'fair forwarding', value: 'n/a (service not started here)' }];
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const edge = spawnNode('resource-server-trusting', serverEntry('resource-server'), { ...ctx.resourceEnv, PORT: String(port), TRUST_PROXY: '1' }, process.cwd(), ctx.logDir, (message) => ctx.say(message));
    try {
      await waitForPort(port);
      const prefix = crypto.randomBytes(4).toString('hex');
      const user = { username: `fair-${prefix}`, password: 'fair password' };
      const victim = { username: `fair-victim-${prefix}`, password: 'victim password' };
      for (const account of [user, victim]) {
        await expectOk(await post(`${base}/register`, { 'content-type': 'application/json' }, JSON.stringify(account)), 'register');
      }
      await signIns(ctx, base, user, performance.now() + 2_000); // warm-up
      ctx.say(`sign-in path idle: ${ctx.duration} s`);
      const idle = await signIns(ctx, base, user, performance.now() + ctx.duration * 1000);

      ctx.say(`${STALLED} stalled uploads, then ${GUESSERS} guessers on a throttled account; the sign-in path meanwhile: ${ctx.duration} s`);
      const stalled = stallUploads(base);
      let stop = false;
      const guessers = guess(ctx, base, victim.username, () => stop);
      await sleep(3_000); // the throttle engages on the victim; every guesser has a refusal held
      const attacked = await signIns(ctx, base, user, performance.now() + ctx.duration * 1000);
      stop = true;
      for (const socket of stalled) socket.destroy();
      await guessers.done;

      const refused = guessers.statuses.get(429) ?? 0;
      const guesses = [...guessers.statuses.values()].reduce((a, b) => a + b, 0);
      const row = (what: string, idleMs: number[], attackedMs: number[]) => {
        const extra = percentile(attackedMs, 99) - percentile(idleMs, 99);
        return {
          figure: `${what} through the edge, ${STALLED} stalled uploads + ${GUESSERS} throttled guessers`,
          value: describe(attackedMs),
          anchor: `idle: ${describe(idleMs)}`,
          goal: 'p99 ≤ idle p99 + 100 ms, all 200',
          meets: extra <= 100 && attacked.failed === 0 && idle.failed === 0,
        };
      };
      return [
        row('GET /.well-known/oauth-authorization-server', idle.metadata, attacked.metadata),
        row('POST /auth/token (a real login)', idle.login, attacked.login),
        { figure: 'the guesses meanwhile', value: `${guesses} answered, ${refused} × 429 (held 1 s each)` },
      ];
    } finally {
      await stopProcess(edge.child);
    }
  },
};
