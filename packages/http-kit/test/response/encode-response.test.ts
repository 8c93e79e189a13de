import { Readable } from 'node:stream';
import test from 'ava';
import iconv from 'iconv-lite';
import { sendBytes } from '../../src/index.ts';
import { request, serve } from '../_helpers/serve.ts';

test('an object body is sent as application/json; charset=utf-8', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = { name: 'Fred', n: 1 };
    });
  });
  const res = await request(port);
  t.is(res.status, 200);
  t.is(res.headers['content-type'], 'application/json; charset=utf-8');
  t.is(res.headers['content-length'], String(res.body.length));
  t.deepEqual(res.json(), { name: 'Fred', n: 1 });
});

test('a body without Content-Type gets the JSON default', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = [1, 2];
      ctx.remove('Content-Type');
    });
  });
  const res = await request(port);
  t.is(res.headers['content-type'], 'application/json; charset=utf-8');
  t.is(res.text, '[1,2]');
});

test('a null body with a status sends no body and no Content-Type', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = null;
      ctx.status = 202;
    });
  });
  const res = await request(port);
  t.is(res.status, 202);
  t.is(res.body.length, 0);
  t.is(res.headers['content-type'], undefined);
});

test('a status without a body sends no body (no Koa status text)', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      if (ctx.path === '/created') ctx.status = 201;
    });
  });
  const created = await request(port, { path: '/created' });
  t.is(created.status, 201);
  t.is(created.body.length, 0);
  t.is(created.headers['content-type'], undefined);
  const unmatched = await request(port, { path: '/nowhere' });
  t.is(unmatched.status, 404);
  t.is(unmatched.body.length, 0);
});

test('the charset is applied last: a latin1 text response is latin1 bytes', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = 'Café';
      ctx.set('Content-Type', 'text/plain; charset=iso-8859-1');
    });
  });
  const res = await request(port);
  t.deepEqual([...res.body], [...iconv.encode('Café', 'latin1')]);
  t.is(res.body.length, 4);
});

test('a JSON response in utf-16le is encoded in that charset', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = { a: 'é' };
      ctx.set('Content-Type', 'application/json; charset=utf-16le');
    });
  });
  const res = await request(port);
  t.is(iconv.decode(res.body, 'utf-16le'), '{"a":"é"}');
});

test('text without a charset is sent as utf-8 and the header names it', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = 'naïve';
      ctx.set('Content-Type', 'text/plain');
    });
  });
  const res = await request(port);
  t.is(res.headers['content-type'], 'text/plain; charset=utf-8');
  t.is(res.text, 'naïve');
});

test('a string under a JSON type is encoded as a JSON string', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = 'hi';
      ctx.type = 'application/json';
    });
  });
  const res = await request(port);
  t.is(res.text, '"hi"');
});

test('500 for an unknown response charset', async (t) => {
  const { port, logs } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = { a: 1 };
      ctx.set('Content-Type', 'application/json; charset=klingon');
    });
  });
  const res = await request(port);
  t.is(res.status, 500);
  t.deepEqual(res.json(), { error: 'internal server error' });
  t.true(logs.some((line) => line['level'] === 50));
});

test('byte bodies for a type without codec are sent as they are', async (t) => {
  const png = [0x89, 0x50, 0x4e, 0x47, 0, 255];
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      if (ctx.path === '/buffer') ctx.body = Buffer.from(png);
      if (ctx.path === '/uint8') ctx.body = new Uint8Array(png);
      if (ctx.path === '/ints') ctx.body = png;
      ctx.type = 'image/png';
    });
  });
  for (const path of ['/buffer', '/uint8', '/ints']) {
    const res = await request(port, { path });
    t.is(res.status, 200, path);
    t.is(res.headers['content-type'], 'image/png');
    t.deepEqual([...res.body], png, path);
  }
});

test('500 for an object body under a type without codec, and for ints out of range', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = ctx.path === '/object' ? { a: 1 } : [1, 256];
      ctx.type = 'image/png';
    });
  });
  for (const path of ['/object', '/range']) {
    const res = await request(port, { path });
    t.is(res.status, 500);
    t.is(res.headers['content-type'], 'application/json; charset=utf-8');
    t.deepEqual(res.json(), { error: 'internal server error' });
  }
});

test('500 (never a half-written response) for a BigInt or a circular body', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.set('X-Handler', 'yes');
      if (ctx.path === '/bigint') {
        ctx.body = { id: 1n };
      } else {
        const loop: Record<string, unknown> = { a: 1 };
        loop['self'] = loop;
        ctx.body = loop;
      }
    });
  });
  for (const path of ['/bigint', '/circular']) {
    const res = await request(port, { path });
    t.is(res.status, 500);
    t.deepEqual(res.json(), { error: 'internal server error' });
    t.is(res.headers['content-length'], String(res.body.length));
    t.is(res.headers['x-handler'], undefined, 'headers of the failed response are dropped');
  }
});

test('a stream body is sent as is, chunked, complete when the stream closes', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = Readable.from([Buffer.from('one,'), Buffer.from('two,'), Buffer.from('three')]);
      ctx.type = 'application/octet-stream';
    });
  });
  const res = await request(port);
  t.is(res.status, 200);
  t.is(res.headers['transfer-encoding'], 'chunked');
  t.is(res.text, 'one,two,three');
});

test('encoding switched off: sendBytes sends bytes even under a codec type', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      sendBytes(ctx, [123, 125], 'application/json');
    });
  });
  const res = await request(port);
  t.is(res.text, '{}');
});

test('encoding switched off with a non-byte body → 500', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = { a: 1 };
      ctx.state['encodeBody'] = false;
    });
  });
  const res = await request(port);
  t.is(res.status, 500);
});

test('objects with asMap() (and lists of them) are turned into maps before encoding', async (t) => {
  class Hero {
    constructor(readonly id: number, readonly secret: string) {}
    asMap() {
      return { id: this.id };
    }
  }
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = [new Hero(1, 's'), new Hero(2, 't')];
    });
  });
  const res = await request(port);
  t.deepEqual(res.json(), [{ id: 1 }, { id: 2 }]);
});

test('a string body for a type without codec needs a charset in the Content-Type', async (t) => {
  const { port } = await serve(t, (app) => {
    app.use((ctx) => {
      ctx.body = 'eyJ.payload.sig';
      ctx.set('Content-Type', ctx.path === '/charset' ? 'application/jwt; charset=utf-8' : 'application/jwt');
    });
  });
  const ok = await request(port, { path: '/charset' });
  t.is(ok.text, 'eyJ.payload.sig');
  const bad = await request(port, { path: '/none' });
  t.is(bad.status, 500);
});
