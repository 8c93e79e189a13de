import test from 'ava';
import { activeToken, startFakeAuthServer, type FakeAuthServer } from '../_helpers/fake-auth-server.ts';
import { bearer, request } from '../_helpers/http.ts';
import { startInProcess, type InProcessServer } from '../_helpers/in-process.ts';
import { parseHeroId, readHeroId } from '../../src/routes/heroes/parse-hero-id.ts';

let auth: FakeAuthServer;
let rs: InProcessServer;
const token = 'hero-token-unscoped';
const h = bearer(token);

test.before(async () => {
  auth = await startFakeAuthServer();
  auth.tokens.set(token, activeToken());
  rs = await startInProcess(auth.url);
  await rs.db.hero.createMany({
    data: ['Mr. Nice', 'Narco', 'Bombasto', 'Celeritas', 'Magneta'].map((name) => ({ name })),
  });
});
test.after.always(async () => {
  await rs?.close();
  await auth?.close();
});

type HeroBody = { id: number; name: string };
const create = (name: unknown, extra: Record<string, unknown> = {}) =>
  request(`${rs.url}/heroes`, { method: 'POST', headers: h, json: { name, ...extra } });

test.serial('GET /heroes → 200, every hero ordered by id', async (t) => {
  const res = await request(`${rs.url}/heroes`, { headers: h });
  t.is(res.status, 200);
  const heroes = res.body as HeroBody[];
  t.true(heroes.length >= 5);
  const ids = heroes.map((hero) => hero.id);
  t.deepEqual(ids, [...ids].sort((a, b) => a - b));
  for (const hero of heroes) t.deepEqual(Object.keys(hero).sort(), ['id', 'name']);
  t.is(heroes[0]?.name, 'Mr. Nice');
});

test('GET /heroes?name= is a case-insensitive substring match', async (t) => {
  const res = await request(`${rs.url}/heroes?name=AG`, { headers: h });
  t.is(res.status, 200);
  t.deepEqual((res.body as HeroBody[]).map((hero) => hero.name), ['Magneta']);
  const none = await request(`${rs.url}/heroes?name=zzz`, { headers: h });
  t.deepEqual(none.body, []);
});

test('GET /heroes?name= treats % and _ literally', async (t) => {
  const res = await request(`${rs.url}/heroes?name=%25`, { headers: h });
  t.deepEqual(res.body, []);
  const underscore = await request(`${rs.url}/heroes?name=_`, { headers: h });
  t.deepEqual(underscore.body, []);
  const backslash = await request(`${rs.url}/heroes?name=%5C`, { headers: h });
  t.deepEqual(backslash.body, []);
  const literal = (await create('100% _Real_ \\hero')).body as HeroBody;
  const found = await request(`${rs.url}/heroes?name=${encodeURIComponent('% _real_ \\')}`, { headers: h });
  t.deepEqual(found.body, [literal]);
});

test('GET /heroes/?name= (Tour of Heroes search URL) works with the trailing slash', async (t) => {
  const res = await request(`${rs.url}/heroes/?name=narco`, { headers: h });
  t.is(res.status, 200);
  t.deepEqual((res.body as HeroBody[]).map((hero) => hero.name), ['Narco']);
});

test('repeated name → 400', async (t) => {
  const res = await request(`${rs.url}/heroes?name=a&name=b`, { headers: h });
  t.is(res.status, 400);
  t.deepEqual(res.body, { error: "multiple values not expected for query value 'name'" });
});

test('GET /heroes/:id → 200 the hero; 404 JSON when absent', async (t) => {
  const created = (await create('Lookup')).body as HeroBody;
  const res = await request(`${rs.url}/heroes/${created.id}`, { headers: h });
  t.is(res.status, 200);
  t.deepEqual(res.body, created);
  const missing = await request(`${rs.url}/heroes/999999`, { headers: h });
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { error: 'not found' });
});

for (const id of ['abc', '1.5', '1e3', '%201', '+1', '0x1', '1-', '--1', '%00', '1%00']) {
  test(`GET/PUT/DELETE /heroes/${id} → 400 invalid path value (not an integer)`, async (t) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await request(`${rs.url}/heroes/${id}`, { method, headers: h, ...(method === 'PUT' ? { json: { name: 'Nobody' } } : {}) });
      t.is(res.status, 400, method);
      t.deepEqual(res.body, { error: "invalid value for path value 'id'" }, method);
    }
  });
}

for (const id of ['0', '-1', '-0', '2147483648', '99999999999', '123456789012345678901234567890']) {
  test(`GET/PUT/DELETE /heroes/${id} → 404 (an integer no hero can have)`, async (t) => {
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const res = await request(`${rs.url}/heroes/${id}`, { method, headers: h, ...(method === 'PUT' ? { json: { name: 'Nobody' } } : {}) });
      t.is(res.status, 404, method);
      t.deepEqual(res.body, { error: 'not found' }, method);
    }
  });
}

test('an out-of-range id is answered 404 without asking the database', async (t) => {
  const ctx = { params: { id: '2147483648' }, state: {} } as unknown as Parameters<typeof readHeroId>[0];
  let reachedRepository = false;
  const error = await t.throwsAsync(readHeroId(ctx, async () => {
    reachedRepository = true;
  }));
  t.is((error as { status?: number }).status, 404);
  t.false(reachedRepository);
  t.is(parseHeroId('-1'), undefined);
  t.is(parseHeroId('2147483647'), 2147483647);
  t.is(parseHeroId('007'), 7);
  t.throws(() => parseHeroId('1.5'), { message: "invalid value for path value 'id'" });
  t.throws(() => parseHeroId(''), { message: "invalid value for path value 'id'" });
});

test('GET /heroes?name=%00 → 400 invalid query value; NUL never reaches a query', async (t) => {
  for (const query of ['name=%00', 'name=a%00b', 'name=%00%00']) {
    const res = await request(`${rs.url}/heroes?${query}`, { headers: h });
    t.is(res.status, 400, query);
    t.deepEqual(res.body, { error: "invalid value for query value 'name'" }, query);
  }
  const ok = await request(`${rs.url}/heroes?name=%01`, { headers: h });
  t.is(ok.status, 200);
  t.deepEqual(ok.body, []);
});

test('a hero name that is not well-formed Unicode → 400, never stored altered', async (t) => {
  const body = '{"name":"lone\\ud800"}';
  const created = await request(`${rs.url}/heroes`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' }, body });
  t.is(created.status, 400);
  t.deepEqual(created.body, { error: 'request entity could not be decoded' });
  const hero = (await create('Well formed')).body as HeroBody;
  const renamed = await request(`${rs.url}/heroes/${hero.id}`, { method: 'PUT', headers: { ...h, 'content-type': 'application/json' }, body });
  t.is(renamed.status, 400);
  t.is((await rs.db.hero.findUniqueOrThrow({ where: { id: hero.id } })).name, 'Well formed');
  t.is(await rs.db.hero.count({ where: { name: { startsWith: 'lone' } } }), 0);
});

test('POST /heroes → 200 with the created hero; id in the body is ignored', async (t) => {
  const res = await create('Fred', { id: 424242 });
  t.is(res.status, 200);
  const hero = res.body as HeroBody;
  t.is(hero.name, 'Fred');
  t.not(hero.id, 424242);
  t.is(await rs.db.hero.count({ where: { id: 424242 } }), 0);
});

test('POST /heroes with a duplicate name → 409', async (t) => {
  t.is((await create('Twice')).status, 200);
  const res = await create('Twice');
  t.is(res.status, 409);
  t.is((res.body as { error: string }).error, 'entity_already_exists');
});

test('POST /heroes validation', async (t) => {
  const cases: Array<[unknown, number, unknown]> = [
    [{}, 400, { error: 'entity validation failed', reasons: ["missing required input key(s): 'name'"] }],
    [{ name: 5 }, 400, { error: 'entity validation failed', reasons: ["invalid input value for 'name'"] }],
    [{ name: null }, 400, { error: 'entity validation failed', reasons: ["invalid input value for 'name'"] }],
    [{ name: '' }, 400, { error: 'entity validation failed', reasons: ["'name' must not be empty"] }],
    [{ name: ' Padded' }, 400, { error: 'entity validation failed', reasons: ["'name' must not start or end with whitespace"] }],
    [{ name: 'x'.repeat(101) }, 400, { error: 'entity validation failed', reasons: ["'name' must be at most 100 characters"] }],
    [{ name: 'a\u0000b' }, 400, { error: 'entity validation failed', reasons: ["'name' must not contain control characters"] }],
    [{ name: 'Ok', foo: 1 }, 400, { error: 'entity validation failed', reasons: ["invalid input key 'foo'"] }],
    [[{ name: 'List' }], 400, { error: 'request entity was unexpected type' }],
  ];
  for (const [json, status, body] of cases) {
    const res = await request(`${rs.url}/heroes`, { method: 'POST', headers: h, json });
    t.is(res.status, status, JSON.stringify(json));
    t.deepEqual(res.body, body, JSON.stringify(json));
  }
  t.is((await create('x'.repeat(100))).status, 200);
  const noBody = await request(`${rs.url}/heroes`, { method: 'POST', headers: { ...h, 'content-type': 'application/json' } });
  t.deepEqual([noBody.status, noBody.body], [400, { error: 'missing required body' }]);
  const form = await request(`${rs.url}/heroes`, {
    method: 'POST', headers: { ...h, 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=Form',
  });
  t.is(form.status, 415);
});

test('hero names follow the one text rule: C1 controls and meaning-changing invisible characters → 400, on create and rename', async (t) => {
  const control = { error: 'entity validation failed', reasons: ["'name' must not contain control characters"] };
  const invisible = (where: string) => ({ error: 'entity validation failed', reasons: [`'name' must not contain invisible characters (${where})`] });
  const hero = (await create('Text Rule')).body as HeroBody;
  for (const [name, body] of [
    ['Evil\u009b[2J', control],
    ['Evil\u0085', control],
    ['Nar\u200bco', invisible('U+200B')],
    ['\u2060Narco', invisible('U+2060')],
  ] as const) {
    const created = await request(`${rs.url}/heroes`, { method: 'POST', headers: h, json: { name } });
    t.deepEqual([created.status, created.body], [400, body], JSON.stringify(name));
    const renamed = await request(`${rs.url}/heroes/${hero.id}`, { method: 'PUT', headers: h, json: { name } });
    t.deepEqual([renamed.status, renamed.body], [400, body], JSON.stringify(name));
  }
  for (const name of ['👨\u200d👩\u200d👧 Family', 'Jos\u00e9', '\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645']) {
    t.is((await create(name)).status, 200, JSON.stringify(name));
  }
});

test('PUT /heroes/:id renames; 404 when absent; 409 on a taken name; id must match', async (t) => {
  const hero = (await create('Before')).body as HeroBody;
  const res = await request(`${rs.url}/heroes/${hero.id}`, { method: 'PUT', headers: h, json: { name: 'After' } });
  t.is(res.status, 200);
  t.deepEqual(res.body, { id: hero.id, name: 'After' });
  const withId = await request(`${rs.url}/heroes/${hero.id}`, { method: 'PUT', headers: h, json: { id: hero.id, name: 'After2' } });
  t.deepEqual(withId.body, { id: hero.id, name: 'After2' });
  const mismatch = await request(`${rs.url}/heroes/${hero.id}`, { method: 'PUT', headers: h, json: { id: hero.id + 1, name: 'X' } });
  t.is(mismatch.status, 400);
  const missing = await request(`${rs.url}/heroes/999999`, { method: 'PUT', headers: h, json: { name: 'Ghost' } });
  t.is(missing.status, 404);
  t.deepEqual(missing.body, { error: 'not found' });
  const taken = await request(`${rs.url}/heroes/${hero.id}`, { method: 'PUT', headers: h, json: { name: 'Narco' } });
  t.is(taken.status, 409);
  const bad = await request(`${rs.url}/heroes/${hero.id}`, { method: 'PUT', headers: h, json: { name: '' } });
  t.is(bad.status, 400);
  const badId = await request(`${rs.url}/heroes/nope`, { method: 'PUT', headers: h, json: { name: 'Z' } });
  t.deepEqual([badId.status, badId.body], [400, { error: "invalid value for path value 'id'" }]);
});

test('PUT /heroes with {id, name} (Tour of Heroes updateHero) renames', async (t) => {
  const hero = (await create('ToH before')).body as HeroBody;
  const res = await request(`${rs.url}/heroes`, { method: 'PUT', headers: h, json: { id: hero.id, name: 'ToH after' } });
  t.is(res.status, 200);
  t.deepEqual(res.body, { id: hero.id, name: 'ToH after' });
  const noId = await request(`${rs.url}/heroes`, { method: 'PUT', headers: h, json: { name: 'No id' } });
  t.is(noId.status, 400);
  const badId = await request(`${rs.url}/heroes`, { method: 'PUT', headers: h, json: { id: 'x', name: 'Bad id' } });
  t.deepEqual(badId.body, { error: 'entity validation failed', reasons: ["invalid input value for 'id'"] });
  const missing = await request(`${rs.url}/heroes`, { method: 'PUT', headers: h, json: { id: 999999, name: 'Ghost' } });
  t.is(missing.status, 404);
  for (const id of [-1, 0, 2147483648, 99999999999, 1e300]) {
    const impossible = await request(`${rs.url}/heroes`, { method: 'PUT', headers: h, json: { id, name: 'Ghost' } });
    t.is(impossible.status, 404, String(id));
    t.deepEqual(impossible.body, { error: 'not found' }, String(id));
  }
  for (const id of [1.5, '5', null, true]) {
    const invalid = await request(`${rs.url}/heroes`, { method: 'PUT', headers: h, json: { id, name: 'Ghost' } });
    t.is(invalid.status, 400, String(id));
    t.deepEqual(invalid.body, { error: 'entity validation failed', reasons: ["invalid input value for 'id'"] }, String(id));
  }
});

test('DELETE /heroes/:id → 204, then 404', async (t) => {
  const hero = (await create('Doomed')).body as HeroBody;
  const res = await request(`${rs.url}/heroes/${hero.id}`, { method: 'DELETE', headers: h });
  t.is(res.status, 204);
  t.is(res.text, '');
  t.is((await request(`${rs.url}/heroes/${hero.id}`, { headers: h })).status, 404);
  const again = await request(`${rs.url}/heroes/${hero.id}`, { method: 'DELETE', headers: h });
  t.is(again.status, 404);
  t.deepEqual(again.body, { error: 'not found' });
});

test('unsupported methods → 405 JSON with Allow', async (t) => {
  const collection = await request(`${rs.url}/heroes`, { method: 'DELETE', headers: h });
  t.is(collection.status, 405);
  t.is(collection.headers.get('allow'), 'GET, POST, PUT, HEAD, OPTIONS');
  t.deepEqual(collection.body, { error: 'method not allowed' });
  const item = await request(`${rs.url}/heroes/1`, { method: 'POST', headers: h, json: { name: 'x' } });
  t.is(item.status, 405);
  t.is(item.headers.get('allow'), 'GET, PUT, DELETE, HEAD, OPTIONS');
  const patch = await request(`${rs.url}/heroes/1`, { method: 'PATCH', headers: h, json: { name: 'x' } });
  t.is(patch.status, 405);
});

test('405 is only told to an authenticated caller (401 first)', async (t) => {
  const res = await request(`${rs.url}/heroes`, { method: 'DELETE' });
  t.is(res.status, 401);
});

test('OPTIONS → 204 with Allow, no token needed', async (t) => {
  const res = await request(`${rs.url}/heroes/3`, { method: 'OPTIONS' });
  t.is(res.status, 204);
  t.is(res.headers.get('allow'), 'GET, PUT, DELETE, HEAD, OPTIONS');
});

test('unknown routes → 404 JSON', async (t) => {
  for (const path of ['/nope', '/heroes/1/extra', '/heroesx']) {
    const res = await request(`${rs.url}${path}`, { headers: h });
    t.is(res.status, 404, path);
    t.deepEqual(res.body, { error: 'not found' });
  }
});

test('gzip when asked for and the list is large enough', async (t) => {
  for (let i = 0; i < 40; i++) await create(`Gzip hero number ${i}`);
  const res = await fetch(`${rs.url}/heroes`, { headers: { ...h, 'accept-encoding': 'gzip' } });
  t.is(res.headers.get('content-encoding'), 'gzip');
  t.true(Array.isArray(await res.json()));
});

test('a small JSON answer is gzipped too when asked for (as Aqueduct), and plain when not', async (t) => {
  const gzipped = await fetch(`${rs.url}/heroes/999999`, { headers: { ...h, 'accept-encoding': 'gzip' } });
  t.is(gzipped.status, 404);
  t.is(gzipped.headers.get('content-encoding'), 'gzip');
  t.deepEqual(await gzipped.json(), { error: 'not found' });
  const plain = await fetch(`${rs.url}/heroes/999999`, { headers: { ...h, 'accept-encoding': 'identity' } });
  t.is(plain.headers.get('content-encoding'), null);
});
