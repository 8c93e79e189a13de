/**
 * Cold introspection: POST /auth/introspect with the resource server's credentials, every request a token never
 * introspected, for BENCH_DURATION s at 50 connections. Goal ≥ 2,000 req/s, all active. The tokens are copies of a
 * real token's row inserted in one statement (the bcrypt-bound endpoint would take minutes): BENCH_DURATION × 20,000
 * (BENCH_COLD_TOKENS), so none is asked twice; a run that runs out says so and misses.
 */
import { basic, expectOk, post } from '../lib/http.ts';
import { runLoad, throughput } from '../lib/load.ts';
import { formatCpu, meterCpu } from '../lib/cpu.ts';
import { formatRate } from '../lib/report.ts';
import type { Section } from './section.ts';

const GOAL = 2000;
/** Tokens minted per second of load: a rate no run has come near. */
const GENEROUS_RATE = 20_000;
const tokensFor = (durationSeconds: number) => Number(process.env.BENCH_COLD_TOKENS ?? Math.max(60_000, durationSeconds * GENEROUS_RATE));

export const coldIntrospection: Section = {
  name: 'introspect',
  async run(ctx) {
    const { id, secret } = ctx.resourceServerClient;
    if (secret === undefined) return [{ figure: 'cold introspection', value: 'n/a (set BENCH_RS_CLIENT_SECRET)' }];
    const TOKENS = tokensFor(ctx.duration);
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
    const url = `${ctx.authUrl}/auth/introspect`;
    const sample = (await expectOk(await post(url, headers, `token=${value(TOKENS - 1)}`), 'introspect')) as { active?: boolean };
    if (sample.active !== true) throw new Error(`a minted token is not active: ${JSON.stringify(sample)}`);

    let next = 0;
    const fresh = () => `token=${value(next++ % (TOKENS - 1))}&token_type_hint=access_token`;
    ctx.say(`POST /auth/introspect, distinct fresh tokens: 50 connections, ${ctx.duration} s`);
    const cpu = meterCpu(ctx.pids.auth);
    const result = await runLoad({
      url,
      connections: 50,
      duration: ctx.duration,
      requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: fresh() }) }],
    });
    const us = cpu.perRequest(result.requests.total);
    const wrapped = next > TOKENS - 1 ? ` (tokens reused: raise BENCH_COLD_TOKENS)` : '';
    return [{
      figure: 'cold introspection (distinct fresh tokens, 50 conn.)',
      value: `${formatRate(throughput(result))}, p99 ${result.latency.p99} ms${formatCpu(us)}${result.non2xx ? `, ${result.non2xx} non-2xx` : ''}${wrapped}`,
      goal: `≥ ${GOAL} req/s`,
      meets: throughput(result) >= GOAL && result.non2xx === 0 && wrapped === '',
    }];
  },
};
