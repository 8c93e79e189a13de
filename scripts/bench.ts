/**
 * `npm run bench` (docs/performance.md): starts the stack (bench/lib/stack.ts), seeds a client, a user and a token,
 * runs each section of SECTIONS in order (one module each in bench/sections/) and prints one table, every figure
 * beside its goal and, where the goal is relative, an anchor measured in the same run. Knobs: BENCH_ONLY,
 * BENCH_DURATION, BCRYPT_COST, BENCH_CPU_PROF, BENCH_BASE_URL. All load targets 127.0.0.1 and is bounded in time.
 */
import { SETTINGS as AUTH_SETTINGS } from '@heroes/auth-server/settings';
import { loadSettings } from '@heroes/platform/settings';
import { createContext, type BenchContext } from './bench/lib/context.ts';
import { stopAll } from './bench/lib/processes.ts';
import { formatReport, type Row } from './bench/lib/report.ts';
import { startStack, type Stack } from './bench/lib/stack.ts';
import { bigForms } from './bench/sections/big-forms.ts';
import { coldIntrospection } from './bench/sections/cold-introspection.ts';
import { coldStart } from './bench/sections/cold-start.ts';
import { dpop } from './bench/sections/dpop.ts';
import { crowdListing } from './bench/sections/crowd-listing.ts';
import { fairForwarding } from './bench/sections/fair-forwarding.ts';
import { formDecode } from './bench/sections/form-decode.ts';
import { fullListing } from './bench/sections/full-listing.ts';
import { growth } from './bench/sections/growth.ts';
import { heroesList } from './bench/sections/heroes-list.ts';
import { layers } from './bench/sections/layers.ts';
import { mixedLoad } from './bench/sections/mixed-load.ts';
import { revocation } from './bench/sections/revocation.ts';
import { search } from './bench/sections/search.ts';
import type { Section } from './bench/sections/section.ts';
import { throttledLogin } from './bench/sections/throttled-login.ts';
import { tokenEndpoint } from './bench/sections/token-endpoint.ts';
import { tracing } from './bench/sections/tracing.ts';

/**
 * In order: later sections may rely on data earlier ones leave behind
 * (heroes, search, listing and mixed share the MANY_HEROES data set, grown
 * by the first of them that runs; `heroes` runs first, on 10 heroes;
 * crowd-listing grows it to 100,000 before them);
 * `cold-start` runs first of all, while the machine is quietest; `growth`
 * runs last, as it leaves 10 million token rows behind.
 */
const SECTIONS: readonly Section[] = [coldStart, formDecode, bigForms, heroesList, dpop, layers, tracing, tokenEndpoint, throttledLogin, fairForwarding, coldIntrospection, revocation, crowdListing, search, fullListing, mixedLoad, growth];

// BCRYPT_COST through the servers' own entry: the bench hashes at the cost they would use.
const cost = loadSettings({ bcryptCost: AUTH_SETTINGS.bcryptCost }, process.env).bcryptCost;
const duration = Number(process.env.BENCH_DURATION ?? 10);
const only = process.env.BENCH_ONLY?.split(',').map((name) => name.trim()).filter(Boolean);
const say = (line: string) => console.error(`[bench] ${line}`);

let stack: Stack | undefined;
let ctx: BenchContext | undefined;

const USAGE = `Usage: npm run bench [-- --help]

Starts the whole stack on 127.0.0.1 and prints one table of figures, each beside its goal and
the anchor measured in the same run (docs/performance.md says how to read it).

Environment:
  BENCH_ONLY=name,name   run only these sections: ${SECTIONS.map((s) => s.name).join(', ')}
  BENCH_DURATION=s       seconds per measured load (default 10)
  BCRYPT_COST=n          the servers' bcrypt cost (default 10)
  BENCH_CPU_PROF=folder  write CPU profiles of every process started
  BENCH_BASE_URL=url     measure a running service instead of starting one`;

/** Refuses what it cannot run before anything starts: one line, exit 2. */
function checkArguments(): void {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    console.log(USAGE);
    process.exit(0);
  }
  if (args.length > 0) fail(`unknown argument ${args[0]}; see npm run bench -- --help`);
  const unknown = only?.filter((name) => !SECTIONS.some((section) => section.name === name)) ?? [];
  if (unknown.length > 0) fail(`BENCH_ONLY: unknown section ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.name).join(', ')}`);
  if (!Number.isFinite(duration) || duration <= 0) fail(`BENCH_DURATION: expected a positive number of seconds, got ${process.env.BENCH_DURATION}`);
}

function fail(line: string): never {
  console.error(`bench: ${line}`);
  process.exit(2);
}

async function main(): Promise<void> {
  stack = await startStack({ cost, say, onExit: (message) => { say(message); void stop(1); } });
  ctx = await createContext(stack, { duration, cost, say });
  const rows: Row[] = [];
  for (const section of SECTIONS) {
    if (only && !only.includes(section.name)) continue;
    say(`section ${section.name}`);
    rows.push(...(await section.run(ctx)));
  }
  console.log(`\n${formatReport(rows, `bcrypt cost ${cost}, ${duration} s per load`)}\n`);
}

let stopping = false;
async function stop(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await stopAll();
  await ctx?.sql.end().catch(() => {});
  await stack?.release();
  process.exit(code);
}

process.on('SIGINT', () => void stop(130));
checkArguments();
main().then(() => stop(0), (err: unknown) => {
  console.error(err);
  void stop(1);
});
