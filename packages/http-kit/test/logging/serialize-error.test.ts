import test from 'ava';
import { serializeError } from '../../src/index.ts';

test('serializeError keeps the safe fields and leaves non-errors alone', (t) => {
  const out = serializeError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED', syscall: 'connect', rawPacket: [1, 2, 3] })) as Record<string, unknown>;
  t.like(out, { type: 'Error', message: 'refused', code: 'ECONNREFUSED', syscall: 'connect' });
  t.false('rawPacket' in out);
  t.is(serializeError('plain'), 'plain');
});
