/**
 * The body of GET /heroes: a JSON array ordered by id, the bytes of JSON.stringify. A page adds `Link: rel="next"`
 * (RFC 8288); one batch or less goes as one buffer (the cached list's bytes kept beside it); a larger full list
 * streams from the shared encoding, a larger search in keyset batches written as the socket asks. No connection is
 * held between batches; none appears twice; a failure after the first bytes truncates the transfer.
 */
import { Readable } from 'node:stream';
import type { Context } from 'koa';
import { sendBytes } from '@heroes/http-kit';
import type { HeroListCache } from '../../data/hero-list-cache.ts';
import { SharedListBuild } from '../../data/shared-list-build.ts';
import type { HeroRepository, HeroRow } from '@heroes/db/pg';
import type { ListQuery } from './read-list-query.ts';

export const BATCH_SIZE = 1000;
const JSON_TYPE = 'application/json; charset=utf-8';

export async function sendHeroList(ctx: Context, heroes: HeroRepository, query: ListQuery, cache?: HeroListCache): Promise<void> {
  const { nameContains, after } = query;
  const whole = cache !== undefined && !nameContains && after === 0 && query.limit === undefined;
  const cached = whole ? cache.read() : undefined;
  if (cached) {
    sendBytes(ctx, encodedList(cached), JSON_TYPE);
    return;
  }
  // Shared only where a list may be kept at all (not in cluster workers: hero-list-cache.ts); else streamed per listing, flat in memory.
  if (whole && cache.maxAgeMs > 0) {
    await sendWholeList(ctx, heroes, cache);
    return;
  }
  const generation = cache?.generation ?? 0;
  const startedAt = performance.now();
  if (query.limit !== undefined) {
    const rows = await heroes.page({ nameContains, after, limit: query.limit + 1 });
    const more = rows.length > query.limit;
    const page = more ? rows.slice(0, query.limit) : rows;
    if (more) ctx.set('Link', nextLink(ctx, query.limit, page[page.length - 1]!.id));
    ctx.body = page.map(toHero);
    return;
  }
  const first = await heroes.page({ nameContains, after, limit: BATCH_SIZE });
  if (first.length < BATCH_SIZE) {
    const list = first.map(toHero);
    ctx.body = whole ? cache.store(generation, list, startedAt) : list;
    return;
  }
  ctx.body = Readable.from(encodeBatches(heroes, query, first), { objectMode: false });
  ctx.type = JSON_TYPE;
}

/** The whole list through its shared build (joined, or begun here): small → its rows (kept by the cache), larger → the shared bytes. */
async function sendWholeList(ctx: Context, heroes: HeroRepository, cache: HeroListCache): Promise<void> {
  let build = cache.joinBuild();
  if (build === undefined) {
    build = new SharedListBuild(cache.generation, performance.now());
    cache.keepBuild(build);
    void build.run((afterId) => heroes.page({ after: afterId, limit: BATCH_SIZE }), BATCH_SIZE);
  }
  const first = await build.first.catch((err: unknown) => {
    cache.forgetBuild(build);
    throw err;
  });
  if (first.length < BATCH_SIZE) {
    ctx.body = cache.store(build.generation, first.map(toHero), build.startedAt);
    return;
  }
  sendSharedList(ctx, build);
}

/** The shared bytes, gzipped once for all when the client takes gzip (http-kit leaves an encoded body alone). */
function sendSharedList(ctx: Context, build: SharedListBuild): void {
  ctx.vary('Accept-Encoding');
  const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  if (gzip) ctx.set('Content-Encoding', 'gzip');
  ctx.body = build.reader(gzip);
  ctx.type = JSON_TYPE;
}

async function* encodeBatches(heroes: HeroRepository, query: ListQuery, first: HeroRow[]): AsyncGenerator<string> {
  let batch = first;
  let prefix = '[';
  for (;;) {
    yield prefix + batch.map((row) => JSON.stringify(toHero(row))).join(',');
    prefix = ',';
    if (batch.length < BATCH_SIZE) break;
    batch = await heroes.page({ nameContains: query.nameContains, after: batch[batch.length - 1]!.id, limit: BATCH_SIZE });
    if (batch.length === 0) break;
  }
  yield ']';
}

/** The bytes of each cached list (the cache replaces the array when it refills, so a list is never stale here). */
const encodedLists = new WeakMap<readonly HeroRow[], Buffer>();

/** JSON.stringify(list) as UTF-8, what http-kit's encoder would send for it, computed once per list. */
function encodedList(list: readonly HeroRow[]): Buffer {
  let bytes = encodedLists.get(list);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(list), 'utf8');
    encodedLists.set(list, bytes);
  }
  return bytes;
}

/** The hero as it travels (key order id, name: the bytes clients saw before). */
function toHero(row: HeroRow): HeroRow {
  return { id: row.id, name: row.name };
}

function nextLink(ctx: Context, limit: number, lastId: number): string {
  const params = new URLSearchParams(ctx.querystring);
  params.set('limit', String(limit));
  params.set('after', String(lastId));
  return `<${ctx.path}?${params.toString()}>; rel="next"`;
}
