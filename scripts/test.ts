/**
 * `npm test`: makes sure the programs the suites drive are there (scripts/test/ensure-test-tools.ts: one line and
 * exit 1 when they cannot be), then runs the given command with DATABASE_URL (scripts/with-database.ts).
 * Usage: node --import tsx scripts/test.ts <command> [args...]
 */
import { MissingToolError, ensureTestTools } from './test/ensure-test-tools.ts';
import { runWithDatabase } from './with-database.ts';

const [command, ...args] = process.argv.slice(2);
if (!command) {
  console.error('usage: test <command> [args...]');
  process.exit(2);
}

let tools: Record<string, string>;
try {
  tools = ensureTestTools();
} catch (error) {
  if (!(error instanceof MissingToolError)) throw error;
  console.error(`npm test: ${error.message}`);
  process.exit(1);
}
// turbo's first run prints a telemetry notice (and would then send usage data): off for the suites.
process.exit(await runWithDatabase(command, args, { ...tools, TURBO_TELEMETRY_DISABLED: '1' }));
