/**
 * Cold introspection: POST /auth/introspect with the resource server's credentials, every request a token never
 * introspected, for BENCH_DURATION s at 50 connections. Goal ≥ 2,000 req/s, all active. The tokens are copies of a
 * real token's row inserted in one statement: BENCH_DURATION × 20,000 per load (BENCH_COLD_TOKENS), none asked twice.
 * BENCH_INTROSPECT_AB=<rounds>: alternating rounds against an auth server answering through oidc-provider alone
 * (library-introspection-server.js), the same-run A/B of the fast path (docs/performance.md).
 */
import path from 'node:path';
import { basic, expectOk, post } from '../lib/http.ts';
import { runLoad, throughput, type LoadResult } from '../lib/load.ts';
import { formatCpu, meterCpu } from '../lib/cpu.ts';
import { freePort, spawnNode, stopProcess, waitForPort } from '../lib/processes.ts';
import { formatRate } from '../lib/report.ts';
import type { Row } from '../lib/report.ts';
import type { Section } from './section.ts';

const GOAL = 2000;
/** Tokens minted per second of load: a rate no run has come near. */
const GENEROUS_RATE = 20_000;
const tokensFor = (durationSeconds: number, loads: number) => Number(process.env.BENCH_COLD_TOKENS ?? Math.max(60_000, durationSeconds * GENEROUS_RATE * loads));

interface Measured {
  result: LoadResult;
  us: number | undefined;
}

export const coldIntrospection: Section = {
  name: 'introspect',
  async run(ctx) {
    const { id, secret } = ctx.resourceServerClient;
    if (secret === undefined) return [{ figure: 'cold introspection', value: 'n/a (set BENCH_RS_CLIENT_SECRET)' }];
    const rounds = Number(process.env.BENCH_INTROSPECT_AB ?? 0);
    if (!Number.isInteger(rounds) || rounds < 0) throw new Error(`BENCH_INTROSPECT_AB: expected a number of rounds, got ${process.env.BENCH_INTROSPECT_AB}`);
    const TOKENS = tokensFor(ctx.duration, rounds > 0 ? 2 * rounds : 1);
    ctx.say(`minting ${TOKENS} fresh access tokens`);
    const value = (i: number) => `cold${String(i).padStart(39, '0')}`; // 43 characters, as the library's
    const { rowCount } = await ctx.sql.query(
      `INSERT INTO access_tokens (id, client_id, user_id, grant_id, scope, payload, expires_at)
       SELECT encode(sha256(convert_to('cold' || lpad(i::text, 39, '0'), 'UTF8')), 'hex'), t.client_id, t.user_id, t.grant_id, t.scope, t.payload, t.expires_at
       FROM generate_series(0, $2 - 1) i, access_tokens t
       WHERE t.id = encode(sha256(convert_to($1, 'UTF8')), 'hex')
       ON CONFLICT (id) DO NOTHING`,
      [ctx.token, TOKENS],
    );
    if (!rowCount) throw new Error('the benchmark token has no access_tokens row to copy');
    const headers = { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' };
    const sample = (await expectOk(await post(`${ctx.authUrl}/auth/introspect`, headers, `token=${value(TOKENS - 1)}`), 'introspect')) as { active?: boolean };
    if (sample.active !== true) throw new Error(`a minted token is not active: ${JSON.stringify(sample)}`);

    let next = 0;
    const fresh = () => `token=${value(next++ % (TOKENS - 1))}&token_type_hint=access_token`;
    const load = (authUrl: string, duration: number) => runLoad({
      url: `${authUrl}/auth/introspect`,
      connections: 50,
      duration,
      requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: fresh() }) }],
    });
    const measure = async (authUrl: string, pid: number, label: string): Promise<Measured> => {
      ctx.say(`POST /auth/introspect (${label}), distinct fresh tokens: 50 connections, ${ctx.duration} s`);
      const cpu = meterCpu(pid);
      const result = await load(authUrl, ctx.duration);
      return { result, us: cpu.perRequest(result.requests.total) };
    };
    const describe = ({ result, us }: Measured) => `${formatRate(throughput(result))}, p99 ${result.latency.p99} ms${formatCpu(us)}${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}`;

    if (rounds === 0) {
      const fast = await measure(ctx.authUrl, ctx.pids.auth!, 'fast path');
      return [fastRow(fast, describe(fast), next > TOKENS - 1)];
    }
    const port = await freePort();
    const entry = path.join(import.meta.dirname, '..', 'library-introspection-server.js');
    const library = spawnNode('auth-library-introspection', entry, { ...ctx.resourceEnv, NODE_ENV: 'production', AUTH_PORT: String(port) }, path.join(import.meta.dirname, '..', '..'), ctx.logDir, ctx.say);
    try {
      await waitForPort(port);
      const libraryUrl = `http://127.0.0.1:${port}`;
      await expectOk(await post(`${libraryUrl}/auth/introspect`, headers, `token=${value(TOKENS - 1)}`), 'introspect (library alone)');
      // Both warmed alike (the JIT), so round 1 compares the answers, not which process compiled first.
      ctx.say('warming both auth servers: 2 s each');
      for (const url of [ctx.authUrl, libraryUrl]) await load(url, 2);
      const rows: Row[] = [];
      for (let round = 1; round <= rounds; round++) {
        // Alternating order (A B, B A, …): neither variant always runs on the warmer machine.
        const order = round % 2 === 1 ? ['fast', 'library'] : ['library', 'fast'];
        const measured: Record<string, Measured> = {};
        for (const which of order) {
          measured[which] = which === 'fast' ? await measure(ctx.authUrl, ctx.pids.auth!, 'fast path') : await measure(libraryUrl, library.pid, 'oidc-provider alone');
        }
        const { fast, library: alone } = measured as { fast: Measured; library: Measured };
        rows.push({ ...fastRow(fast, describe(fast), next > TOKENS - 1), figure: `cold introspection, round ${round}: fast path` });
        rows.push({
          figure: `cold introspection, round ${round}: oidc-provider alone`,
          value: describe(alone),
          anchor: `fast path ${formatRate(throughput(fast.result))}`,
          ratio: throughput(alone.result) / throughput(fast.result),
          goal: `≥ ${GOAL} req/s`,
          meets: throughput(alone.result) >= GOAL && alone.result.non2xx === 0,
        });
      }
      return rows;
    } finally {
      await stopProcess(library.child);
    }
  },
};

function fastRow(fast: Measured, value: string, wrapped: boolean): Row {
  return {
    figure: 'cold introspection (distinct fresh tokens, 50 conn.)',
    value: `${value}${wrapped ? ' (tokens reused: raise BENCH_COLD_TOKENS)' : ''}`,
    goal: `≥ ${GOAL} req/s`,
    meets: throughput(fast.result) >= GOAL && fast.result.non2xx === 0 && !wrapped,
  };
}
