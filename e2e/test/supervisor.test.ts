/**
 * The supervisor of `npm start` (scripts/start/supervisor.ts): a server that
 * keeps crashing is restarted with a growing backoff, then given up on, so
 * `npm start` stops instead of restarting a broken server for ever.
 */
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';
import { Supervisor } from '../../scripts/start/supervisor.ts';

test('a server that crash-loops is restarted with a growing backoff, then given up on after 5 crashes', async (t) => {
  const lines: string[] = [];
  let supervisor: Supervisor | undefined;
  await new Promise<void>((resolve) => {
    supervisor = new Supervisor({
      name: 'crasher',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
      env: process.env,
      cwd: repoRoot,
      log: (line) => lines.push(line),
      onGiveUp: resolve,
      killAfterMs: 1_000,
    });
    supervisor.restartOnCrash = true;
    supervisor.start();
  });
  t.is(supervisor!.restarts, 4);
  t.deepEqual(lines.slice(0, 4), [250, 500, 1000, 2000].map((ms) => `crasher exited (code 3); restarting in ${ms} ms`));
  t.is(lines[4], 'crasher exited (code 3); 5 crashes within 60 s, giving up');
  t.is(lines.length, 5);
});

test('a server that exits while starting is reported at once, not restarted', async (t) => {
  const lines: string[] = [];
  let supervisor: Supervisor | undefined;
  await new Promise<void>((resolve) => {
    supervisor = new Supervisor({
      name: 'broken', command: process.execPath, args: ['-e', 'process.exit(1)'], env: process.env, cwd: repoRoot,
      log: (line) => lines.push(line), onGiveUp: resolve, killAfterMs: 1_000,
    });
    supervisor.start();
  });
  t.is(supervisor!.restarts, 0);
  t.deepEqual(lines, ['broken exited (code 1) while starting']);
});
