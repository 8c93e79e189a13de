/**
 * Brute force beside real logins: 20 connections guess one account's password from one address while (after a
 * 2 s head start) real users log in one at a time, each from its own address (the edge's X-Forwarded-For, sent to
 * the authorization server directly). Figures: the guessers' 429s and 400s; the logins' latency against the same
 * logins alone (goal p99 ≤ 2×, all 200). Leaves the throttled account's rows.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { basic, expectOk, post, sleep } from '../lib/http.ts';
import { runLoad, throughput } from '../lib/load.ts';
import { formatRate } from '../lib/report.ts';
import type { BenchContext } from '../lib/context.ts';
import { percentile } from '../lib/percentile.ts';
import type { Section } from './section.ts';

const GUESSERS = 20;
const REAL_USERS = 4;
const ATTACKER = '203.0.113.66';
/** Seconds the guessers run before the real logins are measured. */
const HEAD_START = 2;

interface Logins {
  latenciesMs: number[];
  failed: number;
}

/** Real users log in one after another until `until`, each from its own address. */
async function realLogins(ctx: BenchContext, users: Array<{ username: string; password: string }>, until: number): Promise<Logins> {
  const result: Logins = { latenciesMs: [], failed: 0 };
  for (let i = 0; performance.now() < until; i++) {
    const user = users[i % users.length]!;
    const started = performance.now();
    const res = await post(`${ctx.authUrl}/auth/token`, {
      authorization: basic(ctx.client.id, ctx.client.secret),
      'content-type': 'application/x-www-form-urlencoded',
      'x-forwarded-for': `198.51.100.${(i % users.length) + 1}`,
    }, new URLSearchParams({ grant_type: 'password', ...user }).toString());
    await res.arrayBuffer();
    result.latenciesMs.push(performance.now() - started);
    if (res.status !== 200) result.failed++;
  }
  return result;
}

const describe = (logins: Logins) =>
  `p50 ${percentile(logins.latenciesMs, 50).toFixed(0)} ms, p99 ${percentile(logins.latenciesMs, 99).toFixed(0)} ms (${logins.latenciesMs.length} logins${logins.failed ? `, ${logins.failed} not 200` : ''})`;

export const throttledLogin: Section = {
  name: 'throttled-login',
  async run(ctx) {
    const prefix = crypto.randomBytes(4).toString('hex');
    const users = Array.from({ length: REAL_USERS }, (_, i) => ({ username: `real-${prefix}-${i}`, password: `real password ${i}` }));
    const victim = { username: `victim-${prefix}`, password: 'victim password' };
    for (const user of [...users, victim]) {
      await expectOk(await post(`${ctx.baseUrl}/register`, { 'content-type': 'application/json' }, JSON.stringify(user)), 'register');
    }

    ctx.say(`real logins alone: ${ctx.duration} s`);
    const alone = await realLogins(ctx, users, performance.now() + ctx.duration * 1000);

    ctx.say(`${GUESSERS} guessers on one account, real logins beside them: ${ctx.duration} s`);
    const attack = runLoad({
      url: `${ctx.authUrl}/auth/token`,
      connections: GUESSERS,
      duration: ctx.duration + HEAD_START,
      method: 'POST',
      headers: { authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ATTACKER },
      body: new URLSearchParams({ grant_type: 'password', username: victim.username, password: 'not the password' }).toString(),
    });
    await sleep(HEAD_START * 1000);
    const underAttack = await realLogins(ctx, users, performance.now() + ctx.duration * 1000);
    const guesses = await attack;

    const count = (status: number) => guesses.statusCodeStats?.[String(status)]?.count ?? 0;
    const refused = count(429);
    const checked = count(400);
    const other = guesses.requests.total - refused - checked;
    const ratio = percentile(underAttack.latenciesMs, 99) / percentile(alone.latenciesMs, 99);
    return [
      {
        figure: `Guessing one account (${GUESSERS} conn.)`,
        value: `${formatRate(throughput(guesses))}: ${refused} × 429, ${checked} × 400 (password checked)${other ? `, ${other} other` : ''}`,
        goal: 'nearly all 429 (checked ≤ 30)',
        meets: refused > 0 && checked <= 30,
      },
      {
        figure: 'Real logins of other accounts meanwhile',
        value: describe(underAttack),
        anchor: `alone: ${describe(alone)}`,
        ratio,
        goal: 'p99 ≤ 2× alone, all 200',
        meets: ratio <= 2 && underAttack.failed === 0 && alone.failed === 0,
      },
    ];
  },
};
