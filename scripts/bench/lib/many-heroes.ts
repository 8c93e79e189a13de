/**
 * Grows the heroes table to `count` rows in one INSERT … generate_series (only the missing rows), then ANALYZE,
 * so the scale sections share one data set. Names are `Hero <n> <16 letters from md5>`: a 4-letter pattern such as
 * `wvut` matches about a hundred of 200,000. countListedHeroes reads one full listing to its end.
 */
import http from 'node:http';
import { createGunzip } from 'node:zlib';
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

/** One GET /heroes, read (and decompressed) to its end; the number of heroes in it (`{"id":` per hero). */
export function countListedHeroes(ctx: BenchContext, options: { gzip: boolean; agent?: http.Agent }): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${ctx.token}`, ...(options.gzip ? { 'accept-encoding': 'gzip' } : {}) };
    http.get(`${ctx.baseUrl}/heroes`, { headers, ...(options.agent ? { agent: options.agent } : {}) }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET /heroes answered ${res.statusCode}`));
      const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
      let heroes = 0;
      let tail = ''; // shorter than the marker: no match is counted twice
      body.on('data', (chunk: Buffer) => {
        const text = tail + chunk.toString('latin1');
        heroes += text.split('{"id":').length - 1;
        tail = text.slice(-5);
      });
      body.on('end', () => resolve(heroes));
      body.on('error', reject);
    }).on('error', reject);
  });
}
