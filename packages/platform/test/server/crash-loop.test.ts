import test from 'ava';
import { CrashLoop } from '../../src/index.ts';

test('the 5th death within 60 s gives up; deaths older than 60 s no longer count', (t) => {
  const loop = new CrashLoop();
  for (const at of [0, 1_000, 2_000, 3_000]) t.false(loop.died(at).givesUp);
  t.deepEqual(loop.died(59_999), { deaths: 5, givesUp: true, withinSeconds: 60 });
  const later = new CrashLoop();
  for (const at of [0, 1_000, 2_000, 3_000]) later.died(at);
  t.deepEqual(later.died(60_500), { deaths: 4, givesUp: false, withinSeconds: 60 });
});
