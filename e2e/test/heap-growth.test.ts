/**
 * Each server caps V8's heap growth (`limitHeapGrowth()`, the platform's
 * server/limit-heap-growth.ts) before V8's first full collection. V8 sets
 * the old generation's next limit at each full collection; one runs while
 * a server's modules load, and a limit set there without the cap is about
 * four times the live heap: the first full listings then grew the old
 * generation to ~75 MB, V8 kept the pages it freed afterwards (~23 MB,
 * "pooled"), and the resource server's RSS stayed ~30 MB higher for the
 * process's life (docs/performance.md, Memory).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { repoRoot } from '@heroes/test-kit';

const run = promisify(execFile);
const preload = path.join(import.meta.dirname, '_helpers/count-full-collections.ts');

const entries = {
  'auth-server': 'packages/auth-server/src/main.ts',
  'resource-server': 'packages/resource-server/src/main.ts',
  // npm run bench's layer variants of the resource server (its own entry).
  'the bench\'s layer-variant server': 'scripts/bench/layer-variant-server.js',
};

for (const [server, entry] of Object.entries(entries)) {
  test(`${server}: the heap-growth cap is set before the first full collection`, async (t) => {
    // No DATABASE_URL: the process loads all its modules, reports the missing setting and exits 1.
    const env = { ...process.env, DATABASE_URL: '' };
    const args = ['--import', 'tsx', '--import', preload, path.join(repoRoot, entry)];
    const { stderr } = await run(process.execPath, args, { cwd: repoRoot, env, timeout: 60_000 }).catch((err: { stderr: string }) => err);
    t.regex(stderr, /^full collections before --heap-growing-percent=\d+: 0$/m, stderr);
  });
}
