/**
 * GET /heroes over more heroes than one batch: the full listing is streamed
 * (chunked, gzip when asked) yet byte-identical to JSON.stringify of the
 * array; `?limit=&after=` pages with `Link: rel="next"`; query errors → 400.
 */
import { gunzipSync } from 'node:zlib';
import http from 'node:http';
import test from 'ava';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request, type JsonResponse } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { BATCH_SIZE } from '../../src/routes/heroes/send-hero-list.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;
const token = 'listing-token';
const h = bearer(token);
const COUNT = BATCH_SIZE * 2 + 345;
let expected: { id: number; name: string }[];

test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set(token, activeToken());
  rs = await startInProcess(auth.url);
  // Names with characters JSON escapes, to compare bytes exactly.
  await rs.db.$executeRawUnsafe(`INSERT INTO heroes (name)
    SELECT 'Hero ' || i || CASE WHEN i % 7 = 0 THEN ' "q" \\ é ☃' ELSE '' END FROM generate_series(1, ${COUNT}) i`);
  expected = await rs.db.hero.findMany({ orderBy: { id: 'asc' }, select: { id: true, name: true } });
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

/** The raw response: status, headers, body bytes. */
function rawGet(path: string, headers: Record<string, string>): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get(`${rs.url}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

test('the full listing is streamed, byte-identical to the JSON array', async (t) => {
  const res = await rawGet('/heroes', h);
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'application/json; charset=utf-8');
  t.is(res.headers['transfer-encoding'], 'chunked');
  t.is(res.body.toString('utf8'), JSON.stringify(expected));
  t.is(expected.length, COUNT);
});

test('the streamed listing is gzipped when the client accepts gzip', async (t) => {
  const res = await rawGet('/heroes', { ...h, 'accept-encoding': 'gzip' });
  t.is(res.status, 200);
  t.is(res.headers['content-encoding'], 'gzip');
  t.is(gunzipSync(res.body).toString('utf8'), JSON.stringify(expected));
});

test('a streamed search keeps the filter across batches', async (t) => {
  const res = await rawGet(`/heroes?name=${encodeURIComponent('HERO 1')}`, h);
  const want = expected.filter((hero) => hero.name.toLowerCase().includes('hero 1'));
  t.true(want.length > BATCH_SIZE);
  t.is(res.body.toString('utf8'), JSON.stringify(want));
});

test('a listing within one batch keeps its Content-Length', async (t) => {
  const res = await rawGet('/heroes?name=%22q%22', h);
  const want = expected.filter((hero) => hero.name.includes('"q"'));
  t.true(want.length < BATCH_SIZE);
  t.is(res.headers['content-length'], String(Buffer.byteLength(JSON.stringify(want))));
  t.is(res.body.toString('utf8'), JSON.stringify(want));
});

test('?limit pages through every hero by Link rel="next", none twice', async (t) => {
  const seen: { id: number; name: string }[] = [];
  let next: string | undefined = '/heroes?limit=700';
  let pages = 0;
  while (next) {
    const res: JsonResponse = await request(`${rs.url}${next}`, { headers: h });
    t.is(res.status, 200);
    const page = res.body as { id: number; name: string }[];
    t.true(page.length <= 700);
    seen.push(...page);
    pages++;
    const link: string | null = res.headers.get('link');
    next = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
    if (link) t.truthy(next, link);
  }
  t.is(pages, Math.ceil(COUNT / 700));
  t.deepEqual(seen, expected);
});

test('a page keeps the name filter in its next link; the last page has no link', async (t) => {
  const first = await request(`${rs.url}/heroes?name=hero%2012&limit=5`, { headers: h });
  const want = expected.filter((hero) => hero.name.toLowerCase().includes('hero 12'));
  t.deepEqual(first.body, want.slice(0, 5));
  const after = want[4]!.id;
  t.is(first.headers.get('link'), `</heroes?name=hero+12&limit=5&after=${after}>; rel="next"`);
  const rest = await request(`${rs.url}/heroes?name=hero%2012&limit=1000&after=${after}`, { headers: h });
  t.deepEqual(rest.body, want.slice(5));
  t.is(rest.headers.get('link'), null);
});

test('?after alone lists the heroes after that id; past the last id → []', async (t) => {
  const cut = expected[COUNT - 10]!.id;
  const res = await request(`${rs.url}/heroes?after=${cut}`, { headers: h });
  t.deepEqual(res.body, expected.slice(COUNT - 9));
  const none = await request(`${rs.url}/heroes?after=99999999999`, { headers: h });
  t.deepEqual(none.body, []);
});

test('malformed or repeated paging parameters → 400', async (t) => {
  for (const query of ['limit=0', 'limit=1001', 'limit=abc', 'limit=-1', 'limit=1.5', 'limit=', 'after=-1', 'after=x', 'after=1e3']) {
    const key = query.split('=')[0];
    const res = await request(`${rs.url}/heroes?${query}`, { headers: h });
    t.is(res.status, 400, query);
    t.deepEqual(res.body, { error: `invalid value for query value '${key}'` }, query);
  }
  const twice = await request(`${rs.url}/heroes?limit=1&limit=2`, { headers: h });
  t.is(twice.status, 400);
  t.deepEqual(twice.body, { error: `multiple values not expected for query value 'limit'` });
});
