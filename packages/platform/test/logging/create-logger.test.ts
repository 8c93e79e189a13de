import { Writable } from 'node:stream';
import test from 'ava';
import { createLogger } from '../../src/index.ts';

const SECRET = 'code=SECRET-7f3a';

function parseError(): Error {
  const err = Object.assign(new Error('Parse Error: Header overflow'), {
    code: 'HPE_HEADER_OVERFLOW',
    bytesParsed: 82_000,
    rawPacket: Buffer.from(`HTTP/1.1 302 Found\r\nLocation: /cb?${SECRET}\r\n`),
    data: { access_token: SECRET },
    body: SECRET,
    config: { headers: { authorization: SECRET } },
    headers: { authorization: `Bearer ${SECRET}`, cookie: SECRET, 'content-type': 'text/plain' },
  });
  return new Error('forwarding failed', { cause: err });
}

test('createLogger writes err without rawPacket, data, body, config or credential headers', (t) => {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const logger = createLogger('test', destination);
  logger.warn({ err: parseError() }, 'upstream failed');
  logger.flush();
  t.is(lines.length, 1);
  t.false(lines[0]!.includes('SECRET'));
  const line = JSON.parse(lines[0]!) as { err: { message: string; cause: Record<string, unknown> } };
  t.is(line.err.message, 'forwarding failed');
  t.like(line.err.cause, { code: 'HPE_HEADER_OVERFLOW', message: 'Parse Error: Header overflow', bytesParsed: 82_000, headers: { 'content-type': 'text/plain' } });
});
