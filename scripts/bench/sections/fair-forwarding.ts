/**
 * Fair forwarding (docs/http.md): metadata and a real login through a second edge (TRUST_PROXY=1), idle and while 300
 * stalled uploads and 1,000 guessers of a locked account (an address each, test-kit's socket holder) hold the sign-in
 * path. Goal: p99 under attack ≤ idle p99 + 100 ms, all 200; beside it, guesses answered, how many the authorization
 * server decided, each process's CPU share and event-loop delay. Leaves behind: the throttled account.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { startSocketHolder, type HolderStatus } from '@heroes/test-kit';
import { usernameKey } from '@heroes/text-rules/username';
import { basic, expectOk, post, sleep } from '../lib/http.ts';
import { freePort, spawnNode, stopProcess, waitForPort } from '../lib/processes.ts';
import { serverEntry } from '../lib/stack.ts';
import { cpuMsOf } from '../lib/cpu.ts';
import { loopDelay } from '../lib/loop-delay.ts';
import type { BenchContext } from '../lib/context.ts';
import type { Section } from './section.ts';

const STALLED = 300;
const GUESSERS = 1_000;
const FORM = 'application/x-www-form-urlencoded';
/** The longest back-off (LOGIN_BACKOFF_MAX_MS's default): the lockout of an attack that has gone on a while. */
const LOCKED_FOR = '15 minutes';
/** Longest wait for every guesser's first refusal, s. */
const LEARNING_MAX_S = 180;

interface Latencies {
  metadata: number[];
  login: number[];
  failed: number;
}

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

/** A process's CPU time, 0 when it is gone or not known. */
function cpuMs(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    return cpuMsOf(pid);
  } catch {
    return 0;
  }
}

/**
 * What the processes did during a window: CPU share of one core, event-loop delay of both servers.
 * start() scrapes both servers (resetting their delay histograms) and reads CPU; end() reads again.
 */
function watchWindow(pids: { edge: number; auth?: number; holder: number }, urls: { edge: string; auth: string }) {
  let started = 0;
  let cpu = { edge: 0, auth: 0, holder: 0 };
  const read = () => ({ edge: cpuMs(pids.edge), auth: cpuMs(pids.auth), holder: cpuMs(pids.holder) });
  return {
    async start() {
      await Promise.all([loopDelay(urls.edge), loopDelay(urls.auth)]);
      started = performance.now();
      cpu = read();
    },
    async end(guesses: number): Promise<string> {
      const [now, elapsed] = [read(), performance.now() - started];
      const [edgeLoop, authLoop] = await Promise.all([loopDelay(urls.edge), loopDelay(urls.auth)]);
      const share = (name: keyof typeof cpu) => `${(((now[name] - cpu[name]) / elapsed) * 100).toFixed(0)} %`;
      const perGuess = (name: keyof typeof cpu) => (guesses > 0 ? `, ${(((now[name] - cpu[name]) * 1000) / guesses).toFixed(0)} µs/guess` : '');
      return `CPU edge ${share('edge')}${perGuess('edge')}, auth server ${share('auth')}, attackers ${share('holder')}${perGuess('holder')}; ` +
        `event-loop delay p99/max: edge ${edgeLoop.p99.toFixed(0)}/${edgeLoop.max.toFixed(0)} ms, auth server ${authLoop.p99.toFixed(0)}/${authLoop.max.toFixed(0)} ms` +
        (guesses > 0 ? `; ${guesses} guesses answered (${((guesses / elapsed) * 1000).toFixed(0)}/s)` : '');
    },
  };
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const describe = (values: number[]) => `p50 ${percentile(values, 50).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms (${values.length})`;

/** The throttle's row of `username`'s account, blocked for LOCKED_FOR (login-throttle.ts's accountSubject). */
async function lockAccount(ctx: BenchContext, username: string): Promise<void> {
  const subject = `account:${crypto.createHash('sha256').update(usernameKey(username) ?? username).digest('base64url')}`;
  await ctx.sql.query(`INSERT INTO login_throttles (key, failures, window_start, blocked_until) VALUES ($1, 20, now(), now() + interval '${LOCKED_FOR}')`, [subject]);
}

async function refusalsDecided(ctx: BenchContext, username: string): Promise<number> {
  const { rows } = await ctx.sql.query<{ n: string }>("SELECT count(*) AS n FROM audit_events WHERE type = 'login.throttled' AND username = $1", [username]);
  return Number(rows[0]!.n);
}

export const fairForwarding: Section = {
  name: 'fair-forwarding',
  async run(ctx) {
    if (ctx.resourceEnv === undefined) return [{ figure: 'fair forwarding', value: 'n/a (service not started here)' }];
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const edge = spawnNode('resource-server-trusting', serverEntry('resource-server'), { ...ctx.resourceEnv, PORT: String(port), TRUST_PROXY: '1' }, process.cwd(), ctx.logDir, (message) => ctx.say(message));
    const holder = await startSocketHolder();
    try {
      await waitForPort(port);
      const prefix = crypto.randomBytes(4).toString('hex');
      const user = { username: `fair-${prefix}`, password: 'fair password' };
      const victim = { username: `fair-victim-${prefix}`, password: 'victim password' };
      for (const account of [user, victim]) {
        await expectOk(await post(`${base}/register`, { 'content-type': 'application/json' }, JSON.stringify(account)), 'register');
      }
      await lockAccount(ctx, victim.username);
      await signIns(ctx, base, user, performance.now() + 2_000); // warm-up
      const window = watchWindow({ edge: edge.pid, auth: ctx.pids.auth, holder: holder.pid }, { edge: base, auth: ctx.authUrl });
      ctx.say(`sign-in path idle: ${ctx.duration} s`);
      await window.start();
      const idle = await signIns(ctx, base, user, performance.now() + ctx.duration * 1000);
      const idleWindow = await window.end(0);

      ctx.say(`${STALLED} stalled uploads, then ${GUESSERS} guessers on a locked account; the sign-in path meanwhile: ${ctx.duration} s`);
      await holder.send({ cmd: 'stall', url: base, count: STALLED, path: '/auth/token' });
      const body = new URLSearchParams({ grant_type: 'password', username: victim.username, password: 'a guess' }).toString();
      const headers = { authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': FORM };
      const started = performance.now();
      await holder.send({ cmd: 'guess', url: base, count: GUESSERS, path: '/auth/token', headers, body, repeatForMs: (ctx.duration + LEARNING_MAX_S + 10) * 1000 });
      while ((await holder.send<HolderStatus>({ cmd: 'status' })).fewestAnswers < 1 && performance.now() - started < LEARNING_MAX_S * 1000) await sleep(500);
      const learnt = (performance.now() - started) / 1000;
      await window.start();
      const before = (await holder.send<HolderStatus>({ cmd: 'status' })).guessesAnswered;
      const attacked = await signIns(ctx, base, user, performance.now() + ctx.duration * 1000);
      const attackWindow = await window.end((await holder.send<HolderStatus>({ cmd: 'status' })).guessesAnswered - before);
      const guesses = await holder.send<HolderStatus>({ cmd: 'stop-guessing' });
      const decided = await refusalsDecided(ctx, victim.username);

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
        { figure: 'the guesses meanwhile', value: `${guesses.guessesAnswered} answered (${JSON.stringify(guesses.guessStatuses)}), ${decided} refused by the authorization server itself; every guesser refused once after ${learnt.toFixed(1)} s` },
        { figure: 'the processes, idle', value: idleWindow },
        { figure: 'the processes, under attack', value: attackWindow },
      ];
    } finally {
      await holder.stop();
      await stopProcess(edge.child);
    }
  },
};
