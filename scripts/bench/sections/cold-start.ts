/**
 * Cold `npm start` on the embedded server: seconds from spawning scripts/start.ts until the edge's /health/ready
 * answers 200, with a fresh data folder, then reusing it; its own ports, data folder and embedded port, DATABASE_URL
 * unset; each start stopped with SIGTERM before the next. Goal < 5 s each on an idle machine.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../repo-root.ts';
import { freePort } from '../lib/processes.ts';
import type { Row } from '../lib/report.ts';
import type { Section } from './section.ts';

const GOAL_SECONDS = 5;
const GIVE_UP_MS = 120_000;

export const coldStart: Section = {
  name: 'cold-start',
  async run(ctx) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-cold-start-'));
    try {
      const rows: Row[] = [];
      for (const folder of ['fresh', 'reused'] as const) {
        ctx.say(`cold npm start, ${folder} data folder`);
        const seconds = await timeStart(dataDir, path.join(ctx.logDir, `cold-start-${folder}.log`));
        rows.push({
          figure: `cold npm start, embedded database, ${folder} data folder`,
          value: `${seconds.toFixed(1)} s until the edge is ready`,
          goal: `< ${GOAL_SECONDS} s`,
          meets: seconds < GOAL_SECONDS,
        });
      }
      return rows;
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

/** Seconds until the edge answers ready; stops the service before returning. */
async function timeStart(dataDir: string, logFile: string): Promise<number> {
  const [port, authPort, pgPort] = [await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = { ...process.env, HEROES_DATA_DIR: dataDir, EMBEDDED_PG_PORT: String(pgPort), PORT: String(port), HOST: '127.0.0.1', AUTH_PORT: String(authPort) };
  delete env.DATABASE_URL;
  const log = fs.openSync(logFile, 'w');
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(repoRoot, 'scripts', 'start.ts')], { cwd: repoRoot, env, stdio: ['ignore', log, log] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`npm start exited (${child.exitCode}); see ${logFile}`);
      if (performance.now() - started > GIVE_UP_MS) throw new Error(`npm start not ready after ${GIVE_UP_MS / 1000} s; see ${logFile}`);
      const ready = await fetch(`http://127.0.0.1:${port}/health/ready`).then((res) => res.status === 200, () => false);
      if (ready) return (performance.now() - started) / 1000;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    fs.closeSync(log);
  }
}
