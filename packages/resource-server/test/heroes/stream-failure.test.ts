/**
 * A database failure after the streamed listing has started cannot become
 * an error answer (the status is sent): the response is destroyed, so the
 * client sees a broken transfer, never a short but valid array.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import Koa from 'koa';
import type { HeroRepository, HeroRow } from '@heroes/db/pg';
import { BATCH_SIZE, sendHeroList } from '../../src/routes/heroes/send-hero-list.ts';

const rows = (from: number): HeroRow[] => Array.from({ length: BATCH_SIZE }, (_, i) => ({ id: from + i, name: `h${from + i}` }));

test('a failing second batch aborts the response', async (t) => {
  const failing: Pick<HeroRepository, 'page'> = {
    async page({ after }) {
      if (after === 0) return rows(1);
      throw new Error('connection terminated');
    },
  };
  const app = new Koa();
  app.silent = true;
  app.use((ctx) => sendHeroList(ctx, failing as HeroRepository, { after: 0 }));
  const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  t.teardown(() => server.close());
  const { port } = server.address() as AddressInfo;
  const outcome = await new Promise<string>((resolve) => {
    http.get(`http://127.0.0.1:${port}/`, (res) => {
      let bytes = 0;
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', () => resolve(`complete after ${bytes} bytes`));
      res.on('error', () => resolve('aborted'));
      res.on('aborted', () => resolve('aborted'));
    }).on('error', () => resolve('aborted'));
  });
  t.is(outcome, 'aborted');
});
