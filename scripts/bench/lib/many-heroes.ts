/**
 * Grows the heroes table to `count` rows in one INSERT … generate_series (only the missing rows), then ANALYZE,
 * so the scale sections share one data set. Names are `Hero <n> <16 letters from md5>`: a 4-letter pattern such as
 * `wvut` matches about a hundred of 200,000.
 */
import type { BenchContext } from './context.ts';

export const MANY_HEROES = Number(process.env.BENCH_HEROES ?? 200_000);

export async function ensureManyHeroes(ctx: BenchContext, count = MANY_HEROES): Promise<void> {
  const { rows } = await ctx.sql.query<{ n: string }>('SELECT count(*) AS n FROM heroes');
  const missing = count - Number(rows[0]!.n);
  if (missing <= 0) return;
  ctx.say(`seeding ${missing} heroes (to ${count})`);
  await ctx.sql.query(
    `INSERT INTO heroes (name)
     SELECT 'Hero ' || i || ' ' || translate(md5(i::text), '0123456789abcdef', 'qrstuvwxyzabcdef')
     FROM generate_series((SELECT coalesce(max(id), 0) + 1 FROM heroes), (SELECT coalesce(max(id), 0) FROM heroes) + $1) i
     ON CONFLICT (name) DO NOTHING`,
    [missing],
  );
  await ctx.sql.query('ANALYZE heroes');
}

/** Ids of existing heroes, for routes that address one. */
export async function someHeroIds(ctx: BenchContext, count: number): Promise<number[]> {
  const { rows } = await ctx.sql.query<{ id: number }>('SELECT id FROM heroes ORDER BY random() LIMIT $1', [count]);
  return rows.map((row) => row.id);
}
