import { spawn } from 'node:child_process';
import path from 'node:path';
import test from 'ava';
import { waitFor } from '@heroes/test-kit';

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
