/**
 * The hold of a delayed refusal is spread (held-refusals.ts spreadHold, docs/http.md "Fair forwarding"): never
 * shorter than the authorization server asked, at most HOLD_SPREAD of it longer, and not one value for everyone.
 */
import test from 'ava';
import { HOLD_SPREAD, spreadHold } from '../../src/proxy/held-refusals.ts';

test('a hold is at least what was asked and less than HOLD_SPREAD of it more, at both ends of the random draw', (t) => {
  t.is(HOLD_SPREAD, 0.25);
  t.is(spreadHold(1_000, () => 0), 1_000);
  t.is(spreadHold(1_000, () => 0.5), 1_125);
  t.is(spreadHold(1_000, () => 0.999_999), 1_249);
  t.is(spreadHold(0, () => 0.999_999), 0);
});

test('holds drawn for a thousand refusals stay within their bounds and spread over them', (t) => {
  const holds = Array.from({ length: 1_000 }, () => spreadHold(1_000));
  t.true(holds.every((ms) => Number.isInteger(ms) && ms >= 1_000 && ms < 1_250), 'every hold within [1000, 1250) ms');
  // A thousand uniform draws over 250 values: every 50 ms bucket gets some (the chance one stays empty is below 1e-90).
  const buckets = new Set(holds.map((ms) => Math.floor((ms - 1_000) / 50)));
  t.deepEqual([...buckets].sort(), [0, 1, 2, 3, 4]);
});
