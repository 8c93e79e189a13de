/**
 * Child process of batched-stdout.test.ts: logs `count` lines to the
 * logger's real stdout in one turn, then stops as `mode` says:
 * exit (process.exit(0) at once), throw (an uncaught exception), end (the
 * event loop runs dry), wait (stays up until stdin closes).
 */
import { createLogger } from '../../src/index.ts';

const [mode, count] = process.argv.slice(2);
const logger = createLogger('child');
for (let i = 0; i < Number(count); i++) logger.info({ i }, 'line');
if (mode === 'exit') process.exit(0);
if (mode === 'throw') throw new Error('crashed on purpose');
if (mode === 'wait') process.stdin.resume();
