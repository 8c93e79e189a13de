import { spawn } from 'node:child_process';
import path from 'node:path';
import test from 'ava';
import { waitFor } from '@heroes/test-kit';
import { batchedStdout, type LineSink } from '../../src/logging/batched-stdout.ts';

const CHILD = path.join(import.meta.dirname, '_log-lines-child.ts');

/** Starts the child; `lines()`: the `i` of each complete line it wrote to stdout so far, in order. */
function startChild(mode: string, count: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode, String(count)], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  const lines = () => stdout.split('\n').slice(0, -1).map((line) => (JSON.parse(line) as { i: number }).i);
  return { child, exited, lines, stderr: () => stderr };
}

const every = (count: number) => Array.from({ length: count }, (_, i) => i);

for (const [mode, code] of [['exit', 0], ['throw', 1], ['end', 0]] as const) {
  test(`every line of the last turn reaches stdout, in order, when the process stops (${mode})`, async (t) => {
    const count = 20_000; // about 1.5 MB, more than one write of sonic-boom
    const { exited, lines, stderr } = startChild(mode, count);
    t.is(await exited, code, stderr());
    t.deepEqual(lines(), every(count));
  });
}

test('lines reach stdout while the process runs on (no exit needed to flush them)', async (t) => {
  const { child, exited, lines } = startChild('wait', 3);
  await waitFor(() => lines().length === 3, { message: () => `lines so far: ${lines().join(', ')}` });
  t.deepEqual(lines(), every(3));
  child.stdin.end();
  t.is(await exited, 0);
});

test('lines logged on successive turns of the event loop within the batch window are handed over in one write', async (t) => {
  const writes: string[] = [];
  let wrote: () => void = () => {};
  const handed = new Promise<void>((resolve) => (wrote = resolve));
  const sink: LineSink = {
    write: (text: string) => {
      writes.push(text);
      wrote();
      return true;
    },
    flush: () => {},
    flushSync: () => {},
  } as unknown as LineSink;
  // A window far longer than ten turns take: the lines of one request a turn (a thousand requests a second) share a write.
  const stream = batchedStdout({ windowMs: 1_000, sink });
  for (let i = 0; i < 10; i++) {
    stream.write(`{"i":${i}}\n`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  t.deepEqual(writes, [], 'nothing is written before the window ends');
  await handed;
  t.deepEqual(writes, [every(10).map((i) => `{"i":${i}}\n`).join('')]);
});
