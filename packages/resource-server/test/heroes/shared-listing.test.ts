/**
 * Concurrent full listings share one encoding (data/shared-list-build.ts): rows queried once per batch, every
 * listing the whole array (gzipped ones the same bytes inflated), a write starts a new encoding, a failure
 * mid-build cuts every reader.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import test from 'ava';
import Koa from 'koa';
import { HeroListCache } from '../../src/data/hero-list-cache.ts';
import type { HeroRepository, HeroRow } from '@heroes/db/pg';
import { BATCH_SIZE, sendHeroList } from '../../src/routes/heroes/send-hero-list.ts';

const HEROES = Array.from({ length: BATCH_SIZE * 3 + 17 }, (_, i) => ({ id: i + 1, name: `Hero ${i + 1} "q" é` }));

function countingRepository(rows: HeroRow[], failAfter?: number): { repository: HeroRepository; pages: () => number } {
  let pages = 0;
  const repository = {
    async page({ after, limit }: { after: number; limit: number }) {
      pages++;
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (failAfter !== undefined && after >= failAfter) throw new Error('connection terminated');
      return rows.filter((row) => row.id > after).slice(0, limit);
    },
  } as HeroRepository;
  return { repository, pages: () => pages };
}

async function serve(t: import('ava').ExecutionContext, repository: HeroRepository, cache: HeroListCache): Promise<number> {
  const app = new Koa();
  app.silent = true;
  app.use((ctx) => sendHeroList(ctx, repository, { after: 0 }, cache));
  const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => server.close());
  return (server.address() as AddressInfo).port;
}

function list(port: number, gzip: boolean): Promise<{ encoding: string | undefined; body: Buffer } | 'aborted'> {
  return new Promise((resolve) => {
    http.get(`http://127.0.0.1:${port}/`, { headers: gzip ? { 'accept-encoding': 'gzip' } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ encoding: res.headers['content-encoding'], body: Buffer.concat(chunks) }));
      res.on('error', () => resolve('aborted'));
      res.on('aborted', () => resolve('aborted'));
    }).on('error', () => resolve('aborted'));
  });
}

test('30 concurrent full listings: one query per batch, every listing whole, gzip and identity alike', async (t) => {
  const { repository, pages } = countingRepository(HEROES);
  const cache = new HeroListCache(60_000);
  const port = await serve(t, repository, cache);
  const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => list(port, i % 2 === 0)));
  const expected = JSON.stringify(HEROES);
  for (const [i, answer] of answers.entries()) {
    if (answer === 'aborted') return t.fail(`listing ${i} aborted`);
    t.is(answer.encoding, i % 2 === 0 ? 'gzip' : undefined);
    t.is((answer.encoding === 'gzip' ? gunzipSync(answer.body) : answer.body).toString('utf8'), expected);
  }
  // Batches of BATCH_SIZE: 4 queries (the last one short), plus none per later listing.
  t.is(pages(), 4);
  // A write through this process: the next listing reads again.
  cache.invalidate();
  const after = await list(port, false);
  t.not(after, 'aborted');
  t.is(pages(), 8);
});

test('without a list cache (cluster workers) each listing streams its own', async (t) => {
  const { repository, pages } = countingRepository(HEROES);
  const port = await serve(t, repository, new HeroListCache(0));
  const answers = await Promise.all([list(port, false), list(port, true)]);
  t.is(pages(), 8);
  t.is((answers[0] as { body: Buffer }).body.toString('utf8'), JSON.stringify(HEROES));
});

test('a failure mid-build cuts every reader (never a short valid array)', async (t) => {
  const { repository } = countingRepository(HEROES, BATCH_SIZE);
  const port = await serve(t, repository, new HeroListCache(60_000));
  const answers = await Promise.all(Array.from({ length: 4 }, (_, i) => list(port, i % 2 === 0)));
  t.deepEqual(answers, ['aborted', 'aborted', 'aborted', 'aborted']);
});
