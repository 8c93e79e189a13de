/**
 * Form decoding is linear: http-kit's FormCodec on 10 KB–10 MB bodies of 1,000 pairs of one repeated key with
 * escaped values; time per byte at each size against the 10 KB one, goal ≤ 3×. Also 10 MB of `a&a&…` is refused
 * after 1,001 parameters. In process; needs no stack.
 */
import { performance } from 'node:perf_hooks';
import { FormCodec } from '@heroes/http-kit';
import type { Row } from '../lib/report.ts';
import type { Section } from './section.ts';

const SIZES = [10_000, 100_000, 1_000_000, 10_000_000];
const PAIRS = 1000;

/** About `bytes` of `k=%41%42…&k=…`: 1,000 pairs of the repeated key `k`. */
function body(bytes: number): string {
  const value = '%41'.repeat(Math.max(1, Math.floor((bytes / PAIRS - 3) / 3)));
  return Array.from({ length: PAIRS }, () => `k=${value}`).join('&');
}

/** Best of `runs` decodes, in milliseconds. */
function timeDecode(codec: FormCodec, text: string, runs: number): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    codec.decode(text, 'utf-8');
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

export const formDecode: Section = {
  name: 'form-decode',
  async run(ctx) {
    const codec = new FormCodec();
    ctx.say('form decode: 10 KB to 10 MB');
    const anchorBody = body(SIZES[0]!);
    const anchorMs = timeDecode(codec, anchorBody, 50);
    const perByte = anchorMs / anchorBody.length;
    const rows: Row[] = SIZES.map((size) => {
      const text = body(size);
      const ms = timeDecode(codec, text, size >= 1_000_000 ? 3 : 20);
      const ratio = ms / text.length / perByte;
      return {
        figure: `form decode, ${size >= 1_000_000 ? `${size / 1_000_000} MB` : `${size / 1000} KB`} (1,000 × one key)`,
        value: `${ms.toFixed(2)} ms`,
        anchor: `10 KB: ${(perByte * 1e6).toFixed(1)} ns/byte`,
        ratio,
        goal: '≤ 3× the 10 KB time per byte',
        meets: ratio <= 3,
      };
    });
    // As from the wire: a flat string (a fresh `repeat` is a rope until first read).
    const flood = Buffer.from('a&'.repeat(5_000_000)).toString('utf8');
    const start = performance.now();
    let refused = false;
    try {
      codec.decode(flood);
    } catch {
      refused = true;
    }
    const floodMs = performance.now() - start;
    rows.push({
      figure: 'form decode, 10 MB of `a&` (5 million parameters)',
      value: `${refused ? '413' : 'decoded'} in ${floodMs.toFixed(2)} ms`,
      goal: '413 after 1,000 parameters, < 10 ms',
      meets: refused && floodMs < 10,
    });
    return rows;
  },
};
