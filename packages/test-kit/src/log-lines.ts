/**
 * A log destination that keeps every JSON line written to it, parsed, so a test can wait for the line it expects.
 * Usage: const logs = captureJsonLines(); pino({ level: 'debug' }, logs.stream);
 *        await waitFor(() => logs.lines.find((line) => line['msg'] === 'request'))
 */
import { Writable } from 'node:stream';

export interface CapturedLines {
  /** Every line written so far, in order. */
  lines: Array<Record<string, unknown>>;
  /** The destination to hand to the logger. */
  stream: Writable;
}

export function captureJsonLines(): CapturedLines {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}
