/**
 * Cost as the data grows: the password grant and cold introspection on the nearly empty bench database, then with
 * BENCH_GROWTH_TOKENS token rows (one in ten expired) and BENCH_GROWTH_USERS users made by set-based SQL. Goals: each
 * ≥ 0.8× its nearly-empty figure; the purge of expired rows (purgeExpired) keeps introspections within 50 ms of their
 * slowest without it. Also rows written per login and table sizes. Runs last: the ballast stays.
 */
import { createDb } from '@heroes/db';
import { purgeExpired } from '@heroes/auth-server';
import { basic, post, sleep, expectOk } from '../lib/http.ts';
import { runLoad, throughput, type LoadResult } from '../lib/load.ts';
import { formatMb, formatRate } from '../lib/report.ts';
import type { BenchContext } from '../lib/context.ts';
import type { Section } from './section.ts';

const TOKENS = Number(process.env.BENCH_GROWTH_TOKENS ?? 10_000_000);
const USERS = Number(process.env.BENCH_GROWTH_USERS ?? 1_000_000);
/** Rows per INSERT statement while generating. */
const CHUNK = 1_000_000;
const RATIO_GOAL = 0.8;
const PURGE_BLOCK_GOAL_MS = 50;
const PROBE_CONNECTIONS = 4;

export const growth: Section = {
  name: 'growth',
  async run(ctx) {
    const { load: grantBefore, written } = await rowsWrittenPerLogin(ctx);
    const coldBefore = await coldIntrospection(ctx, 'nearly empty');
    await grow(ctx);
    const grantAfter = await grantLoad(ctx);
    const coldAfter = await coldIntrospection(ctx, 'grown');
    const purge = await purgeUnderProbe(ctx);
    const sizes = await tableSizes(ctx);

    const grantRatio = throughput(grantAfter) / throughput(grantBefore);
    const coldRatio = throughput(coldAfter) / throughput(coldBefore);
    const grown = `${TOKENS.toLocaleString('en')} tokens, ${USERS.toLocaleString('en')} users`;
    return [
      {
        figure: `password grant with ${grown} (8 conn.)`,
        value: `${formatRate(throughput(grantAfter))}, p99 ${grantAfter.latency.p99} ms${errors(grantAfter)}`,
        anchor: `nearly empty ${formatRate(throughput(grantBefore))}`,
        ratio: grantRatio,
        goal: `≥ ${RATIO_GOAL}× nearly empty`,
        meets: grantRatio >= RATIO_GOAL && grantAfter.non2xx === 0,
      },
      {
        figure: `cold introspection with ${grown} (50 conn.)`,
        value: `${formatRate(throughput(coldAfter))}, p99 ${coldAfter.latency.p99} ms${errors(coldAfter)}`,
        anchor: `nearly empty ${formatRate(throughput(coldBefore))}`,
        ratio: coldRatio,
        goal: `≥ ${RATIO_GOAL}× nearly empty`,
        meets: coldRatio >= RATIO_GOAL && coldAfter.non2xx === 0,
      },
      {
        figure: `purge of ${purge.deleted.toLocaleString('en')} expired rows (batched), cold introspection meanwhile (${PROBE_CONNECTIONS} conn.)`,
        value: `slowest answer ${purge.during.max} ms, p99 ${purge.during.p99} ms; purge took ${(purge.ms / 1000).toFixed(1)} s`,
        anchor: `as many probes without a purge: slowest ${purge.without.max} ms, p99 ${purge.without.p99} ms`,
        goal: `slowest ≤ ${PURGE_BLOCK_GOAL_MS} ms more`,
        meets: purge.during.max - purge.without.max <= PURGE_BLOCK_GOAL_MS && purge.errors === 0,
      },
      { figure: 'rows written per login (password grant)', value: written },
      { figure: 'table sizes (with indexes)', value: sizes },
    ];
  },
};

function errors(result: LoadResult): string {
  return result.non2xx ? `, ${result.non2xx} non-2xx` : '';
}

function grantLoad(ctx: BenchContext): Promise<LoadResult> {
  ctx.say(`password grant: 8 connections, ${ctx.duration} s`);
  return runLoad({
    url: `${ctx.baseUrl}/auth/token`,
    connections: 8,
    duration: ctx.duration,
    method: 'POST',
    headers: { authorization: basic(ctx.client.id, ctx.client.secret), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', ...ctx.user }).toString(),
  });
}

/** The nearly-empty grant load, and the inserts, updates and deletes per table over it, per login: `access_tokens 1, oidc_records 2, …`. */
async function rowsWrittenPerLogin(ctx: BenchContext): Promise<{ load: LoadResult; written: string }> {
  const counts = async () => {
    // An idle backend reports its counts within 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): wait for the last of them.
    await sleep(11_000);
    const { rows } = await ctx.sql.query<{ relname: string; written: string }>(
      'SELECT relname, n_tup_ins + n_tup_upd + n_tup_del AS written FROM pg_stat_user_tables',
    );
    return new Map(rows.map((row) => [row.relname, Number(row.written)]));
  };
  const before = await counts();
  const load = await grantLoad(ctx);
  const after = await counts();
  const logins = load.requests.total;
  const perTable = [...after].map(([table, total]) => [table, (total - (before.get(table) ?? 0)) / logins] as const).filter(([, rows]) => rows > 0.005);
  const sum = perTable.reduce((all, [, rows]) => all + rows, 0);
  return { load, written: `${sum.toFixed(2)} (${perTable.sort((a, b) => b[1] - a[1]).map(([table, rows]) => `${table} ${rows.toFixed(2)}`).join(', ')}) over ${logins} logins` };
}

let minted = 0;

/** `count` new access tokens (copies of the bench token's row); their values are `${prefix}${i}`. */
async function mintTokens(ctx: BenchContext, count: number): Promise<string> {
  const prefix = `growth${minted++}-`;
  await ctx.sql.query(
    `INSERT INTO access_tokens (id, client_id, user_id, grant_id, scope, payload, expires_at)
     SELECT encode(sha256(convert_to($3 || i::text, 'UTF8')), 'hex'), t.client_id, t.user_id, t.grant_id, t.scope, t.payload, t.expires_at
     FROM generate_series(0, $2 - 1) i, access_tokens t
     WHERE t.id = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
    [ctx.token, count, prefix],
  );
  return prefix;
}

/**
 * Introspection at the authorization server, as the resource server calls it; each request one indexed
 * lookup (the server keeps no result cache), of tokens cycled from `tokens` (default: fresh ones, never asked).
 */
async function coldIntrospection(ctx: BenchContext, label: string, connections = 50, duration = ctx.duration, tokens?: { prefix: string; count: number }): Promise<LoadResult> {
  const { id, secret } = ctx.resourceServerClient;
  if (secret === undefined) throw new Error('the growth section needs the resource server client secret (BENCH_RS_CLIENT_SECRET)');
  const count = tokens?.count ?? Math.max(60_000, duration * 20_000);
  const prefix = tokens?.prefix ?? (await mintTokens(ctx, count));
  const headers = { authorization: basic(id, secret), 'content-type': 'application/x-www-form-urlencoded' };
  const url = `${ctx.authUrl}/auth/introspect`;
  const sample = (await expectOk(await post(url, headers, `token=${prefix}0`), 'introspect')) as { active?: boolean };
  if (sample.active !== true) throw new Error(`a minted token is not active: ${JSON.stringify(sample)}`);
  let next = 0;
  ctx.say(`introspection (${label}): ${connections} connections, ${duration} s`);
  return runLoad({
    url,
    connections,
    duration,
    requests: [{ method: 'POST', headers, setupRequest: (req) => ({ ...req, body: `token=${prefix}${next++ % count}&token_type_hint=access_token` }) }],
  });
}

/** BENCH_GROWTH_USERS users and BENCH_GROWTH_TOKENS tokens (8 in 10 access, 2 in 10 refresh; one in ten expired), a million rows a statement. */
async function grow(ctx: BenchContext): Promise<void> {
  const started = performance.now();
  const { rows: [template] } = await ctx.sql.query<{ hashed_password: string; salt: string }>(
    'SELECT hashed_password, salt FROM users WHERE username = $1', [ctx.user.username],
  );
  for (let from = 0; from < USERS; from += CHUNK) {
    const to = Math.min(USERS, from + CHUNK);
    ctx.say(`growth: users ${from.toLocaleString('en')} to ${to.toLocaleString('en')}`);
    await ctx.sql.query(
      // ASCII lower-case names: each is its own case-mapped key (sign-in's index) and stands for its own skeleton.
      `INSERT INTO users (username, username_key, username_skeleton, hashed_password, salt)
       SELECT name, name, name, $3, $4 FROM generate_series($1::int, $2::int - 1) n, LATERAL (SELECT 'growth-' || lpad(n::text, 8, '0') AS name) named`,
      [from, to, template!.hashed_password, template!.salt],
    );
  }
  const { rows: [range] } = await ctx.sql.query<{ first: number }>("SELECT min(id) AS first FROM users WHERE username LIKE 'growth-%'");
  const accessTokens = Math.round(TOKENS * 0.8);
  for (const [table, count] of [['access_tokens', accessTokens], ['refresh_tokens', TOKENS - accessTokens]] as const) {
    for (let from = 0; from < count; from += CHUNK) {
      const to = Math.min(count, from + CHUNK);
      ctx.say(`growth: ${table} ${from.toLocaleString('en')} to ${to.toLocaleString('en')}`);
      await ctx.sql.query(
        `INSERT INTO ${table} (id, client_id, user_id, grant_id, scope, payload, expires_at)
         SELECT 'growth' || lpad(n::text, 58, '0'), t.client_id, $4::int + n % $5::int, 'growth-grant-' || n, t.scope, t.payload,
                CASE WHEN n % 10 = 0 THEN now() AT TIME ZONE 'UTC' - interval '1 hour' ELSE now() AT TIME ZONE 'UTC' + interval '1 day' END
         FROM generate_series($2::int, $3::int - 1) n, access_tokens t
         WHERE t.id = encode(sha256(convert_to($1, 'UTF8')), 'hex')`,
        [ctx.token, from, to, range!.first, USERS],
      );
    }
  }
  ctx.say('growth: ANALYZE');
  await ctx.sql.query('ANALYZE');
  ctx.say(`growth: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * The purge of the expired ballast, run while cold introspections probe in windows of 2 s; then, once VACUUM and
 * CHECKPOINT have settled what it left, as many windows without a purge (the slowest of more answers is slower:
 * both sides count the same number of windows).
 */
async function purgeUnderProbe(ctx: BenchContext): Promise<{ deleted: number; ms: number; during: { max: number; p99: number }; without: { max: number; p99: number }; errors: number }> {
  const tokens = { prefix: await mintTokens(ctx, 20_000), count: 20_000 };
  const probe = (seconds: number) => coldIntrospection(ctx, 'probe', PROBE_CONNECTIONS, seconds, tokens);
  const db = createDb(ctx.databaseUrl, { maxConnections: 2 });
  try {
    ctx.say('purge of the expired rows, with cold introspections meanwhile');
    const started = performance.now();
    let ms = 0;
    const purging = purgeExpired(db).then((counts) => {
      ms = performance.now() - started;
      return Object.values(counts).reduce((all, count) => all + count, 0);
    });
    let done = false;
    void purging.finally(() => (done = true));
    const probes: LoadResult[] = [];
    while (!done) probes.push(await probe(2));
    const deleted = await purging;
    // Otherwise the baseline would time autovacuum and checkpoints still working through the purge's dead rows.
    ctx.say('VACUUM and CHECKPOINT, so that the baseline runs on a settled database');
    await ctx.sql.query('VACUUM');
    await ctx.sql.query('CHECKPOINT').catch((err: Error) => ctx.say(`CHECKPOINT refused (${err.message}): the baseline may include one`));
    ctx.say(`the same ${probes.length} probes without a purge`);
    const without: LoadResult[] = [];
    while (without.length < probes.length) without.push(await probe(2));
    const worst = (results: LoadResult[]) => ({ max: Math.max(...results.map((p) => p.latency.max)), p99: Math.max(...results.map((p) => p.latency.p99)) });
    return {
      deleted,
      ms,
      during: worst(probes),
      without: worst(without),
      errors: probes.reduce((all, p) => all + p.non2xx + p.errors, 0),
    };
  } finally {
    await db.$disconnect();
  }
}

/** `access_tokens 5,120 MB, refresh_tokens …` for the largest tables. */
async function tableSizes(ctx: BenchContext): Promise<string> {
  const { rows } = await ctx.sql.query<{ relname: string; bytes: string; rows: string }>(
    `SELECT relname, pg_total_relation_size(relid) AS bytes, n_live_tup AS rows FROM pg_stat_user_tables ORDER BY pg_total_relation_size(relid) DESC LIMIT 6`,
  );
  return rows.map((row) => `${row.relname} ${formatMb(Number(row.bytes))} (${Number(row.rows).toLocaleString('en')} rows)`).join(', ');
}
