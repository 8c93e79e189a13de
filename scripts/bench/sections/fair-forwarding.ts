/**
 * Fair forwarding (docs/http.md): metadata and a real login through a second edge (TRUST_PROXY=1), idle and while 300
 * stalled uploads and 1,000 guessers of a locked account (an address each, test-kit's socket holder) hold the sign-in
 * path, in BENCH_FAIR_ROUNDS rounds (6) taking turns, so the p99 of each side is of several hundred logins. Goal: p99
 * under attack ≤ idle p99 + 100 ms, all 200; beside it, guesses answered, how many the authorization server decided,
 * each process's CPU share and event-loop delay. Leaves behind: the throttled account.
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
import { percentile } from '../lib/percentile.ts';
import type { Section } from './section.ts';

const STALLED = 300;
const GUESSERS = 1_000;
const FORM = 'application/x-www-form-urlencoded';
/** The longest back-off (LOGIN_BACKOFF_MAX_MS's default): the lockout of an attack that has gone on a while. */
const LOCKED_FOR = '15 minutes';
/** Longest wait for every guesser's first refusal, s. */
const LEARNING_MAX_S = 180;
/** Idle and attacked windows (ctx.duration each) taking turns: the machine's other work falls on both sides alike. */
const ROUNDS = Number(process.env.BENCH_FAIR_ROUNDS ?? 6);

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
 * What the processes did over the windows of one side: CPU share of one core, event-loop delay of both servers (the
 * largest p99 and max of any window). start() scrapes both servers (resetting their delay histograms) and reads CPU;
 * stop() adds the window to the tally.
 */
function watchWindows(pids: { edge: number; auth?: number; holder: number }, urls: { edge: string; auth: string }) {
  let started = 0;
  let cpu = { edge: 0, auth: 0, holder: 0 };
  const spent = { edge: 0, auth: 0, holder: 0 };
  let elapsed = 0;
  let guesses = 0;
  const delay = { edge: { p99: 0, max: 0 }, auth: { p99: 0, max: 0 } };
  const read = () => ({ edge: cpuMs(pids.edge), auth: cpuMs(pids.auth), holder: cpuMs(pids.holder) });
  const widen = (into: { p99: number; max: number }, seen: { p99: number; max: number }) => {
    into.p99 = Math.max(into.p99, seen.p99);
    into.max = Math.max(into.max, seen.max);
  };
  return {
    async start() {
      await Promise.all([loopDelay(urls.edge), loopDelay(urls.auth)]);
      started = performance.now();
      cpu = read();
    },
    async stop(guessesAnswered = 0) {
      const now = read();
      elapsed += performance.now() - started;
      for (const name of ['edge', 'auth', 'holder'] as const) spent[name] += now[name] - cpu[name];
      guesses += guessesAnswered;
      const [edgeLoop, authLoop] = await Promise.all([loopDelay(urls.edge), loopDelay(urls.auth)]);
      widen(delay.edge, edgeLoop);
      widen(delay.auth, authLoop);
    },
    summary(): string {
      const share = (name: keyof typeof spent) => `${((spent[name] / elapsed) * 100).toFixed(0)} %`;
      const perGuess = (name: keyof typeof spent) => (guesses > 0 ? `, ${((spent[name] * 1000) / guesses).toFixed(0)} µs/guess` : '');
      return `CPU edge ${share('edge')}${perGuess('edge')}, auth server ${share('auth')}, attackers ${share('holder')}${perGuess('holder')}; ` +
        `event-loop delay p99/max (worst window): edge ${delay.edge.p99.toFixed(0)}/${delay.edge.max.toFixed(0)} ms, auth server ${delay.auth.p99.toFixed(0)}/${delay.auth.max.toFixed(0)} ms` +
        (guesses > 0 ? `; ${guesses} guesses answered (${((guesses / elapsed) * 1000).toFixed(0)}/s)` : '');
    },
  };
}

const describe = (values: number[]) => `p50 ${percentile(values, 50).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms, max ${Math.max(...values).toFixed(0)} ms (${values.length})`;

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
    if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error(`BENCH_FAIR_ROUNDS: expected a number of rounds, got ${process.env.BENCH_FAIR_ROUNDS}`);
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
      const pids = { edge: edge.pid, auth: ctx.pids.auth, holder: holder.pid };
      const urls = { edge: base, auth: ctx.authUrl };
      const [idleWindows, attackWindows] = [watchWindows(pids, urls), watchWindows(pids, urls)];
      const idle: Latencies = { metadata: [], login: [], failed: 0 };
      const attacked: Latencies = { metadata: [], login: [], failed: 0 };
      const add = (into: Latencies, from: Latencies) => {
        into.metadata.push(...from.metadata);
        into.login.push(...from.login);
        into.failed += from.failed;
      };
      const body = new URLSearchParams({ grant_type: 'password', username: victim.username, password: 'a guess' }).toString();
      const headers = { authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': FORM };
      ctx.say(`${ROUNDS} rounds of ${ctx.duration} s idle, then ${ctx.duration} s under ${STALLED} stalled uploads and ${GUESSERS} guessers of a locked account`);
      let learnt = 0;
      for (let round = 1; round <= ROUNDS; round++) {
        await idleWindows.start();
        add(idle, await signIns(ctx, base, user, performance.now() + ctx.duration * 1000));
        await idleWindows.stop();

        await holder.send({ cmd: 'stall', url: base, count: STALLED, path: '/auth/token' });
        const started = performance.now();
        await holder.send({ cmd: 'guess', url: base, count: GUESSERS, path: '/auth/token', headers, body, repeatForMs: (ctx.duration + LEARNING_MAX_S + 10) * 1000 });
        // Measured once every guesser has had a refusal (the first round: the authorization server's, in turn).
        while ((await holder.send<HolderStatus>({ cmd: 'status' })).fewestAnswers < 1 && performance.now() - started < LEARNING_MAX_S * 1000) await sleep(500);
        if (round === 1) learnt = (performance.now() - started) / 1000;
        await attackWindows.start();
        const before = (await holder.send<HolderStatus>({ cmd: 'status' })).guessesAnswered;
        add(attacked, await signIns(ctx, base, user, performance.now() + ctx.duration * 1000));
        await attackWindows.stop((await holder.send<HolderStatus>({ cmd: 'status' })).guessesAnswered - before);
        await holder.send({ cmd: 'stop-guessing' });
        // The next idle window starts once the last guess has been answered (each is held LOGIN_REFUSAL_DELAY_MS).
        while ((await holder.send<HolderStatus>({ cmd: 'status' })).guessing > 0) await sleep(100);
      }
      const guesses = await holder.send<HolderStatus>({ cmd: 'status' });
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
        { figure: 'the guesses meanwhile', value: `${guesses.guessesAnswered} answered (${JSON.stringify(guesses.guessStatuses)}), ${decided} refused by the authorization server itself; every guesser refused once after ${learnt.toFixed(1)} s (the first round)` },
        { figure: 'the processes, idle', value: idleWindows.summary() },
        { figure: 'the processes, under attack', value: attackWindows.summary() },
      ];
    } finally {
      await holder.stop();
      await stopProcess(edge.child);
    }
  },
};
