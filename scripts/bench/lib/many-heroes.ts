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

const MARKER = Buffer.from('{"id":');

/**
 * One GET /heroes, read (and decompressed) to its end; the number of heroes in it (`{"id":` per hero), counted in
 * the bytes as they come (Buffer indexOf, no strings: the load generator must stay cheaper than the server it loads).
 */
export function countListedHeroes(target: Pick<BenchContext, 'baseUrl' | 'token'>, options: { gzip: boolean; agent?: http.Agent }): Promise<number> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `Bearer ${target.token}`, ...(options.gzip ? { 'accept-encoding': 'gzip' } : {}) };
    http.get(`${target.baseUrl}/heroes`, { headers, ...(options.agent ? { agent: options.agent } : {}) }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET /heroes answered ${res.statusCode}`));
      const body = res.headers['content-encoding'] === 'gzip' ? res.pipe(createGunzip()) : res;
      let heroes = 0;
      let tail = Buffer.alloc(0); // the last bytes of the previous chunk, shorter than the marker: no match is counted twice
      body.on('data', (chunk: Buffer) => {
        if (tail.length > 0) heroes += occurrences(Buffer.concat([tail, chunk.subarray(0, MARKER.length - 1)]));
        heroes += occurrences(chunk);
        const end = chunk.length >= MARKER.length - 1 ? chunk : Buffer.concat([tail, chunk]);
        tail = Buffer.from(end.subarray(Math.max(0, end.length - (MARKER.length - 1))));
      });
      body.on('end', () => resolve(heroes));
      body.on('error', reject);
    }).on('error', reject);
  });
}

function occurrences(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(MARKER); at !== -1; at = bytes.indexOf(MARKER, at + MARKER.length)) count++;
  return count;
}
