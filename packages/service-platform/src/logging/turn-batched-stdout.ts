/**
 * Kept: with pino's minLength destination GET /heroes cost 1.66× the anchor's CPU/req vs 1.43× (same-run A/B; goal 1.5×).
 * The logger's stdout: sonic-boom (pino's own destination) handed a turn's lines as one string, because it
 * measures its whole pending text per line written (n lines in a turn, n copies). Lines keep their order;
 * flush(), flushSync() and the process's exit (process.exit(), an uncaught exception, the loop's end) write what
 * is pending synchronously, so only SIGKILL loses lines. Usage: pino(options, turnBatchedStdout())
 */
import { destination, type DestinationStream } from 'pino';

type SonicBoom = ReturnType<typeof destination>;

export interface TurnBatchedStream extends DestinationStream {
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
}

/** Streams with lines not yet handed over: written out when the process exits. */
const withPendingLines = new Set<() => void>();
let exitHookInstalled = false;
let syncStdout: SonicBoom | undefined;

function writeAllPending(): void {
  for (const writeOut of withPendingLines) writeOut();
}

export function turnBatchedStdout(): TurnBatchedStream {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', writeAllPending);
  }
  const boom: SonicBoom = destination({ dest: 1, sync: false });
  let pending = '';
  let scheduled = false;

  function handOver(): void {
    scheduled = false;
    withPendingLines.delete(writeOutNow);
    if (pending === '') return;
    const text = pending;
    pending = '';
    // Looked up at each call: pino replaces write() by a no-op once stdout is a broken pipe.
    boom.write(text);
  }

  /**
   * Synchronously: what sonic-boom holds, then this turn's lines (handed to
   * sonic-boom, they would start an asynchronous write that an exiting
   * process does not wait for).
   */
  function writeOutNow(): void {
    withPendingLines.delete(writeOutNow);
    try {
      boom.flushSync();
    } catch {
      // Destroyed: nothing can be written any more.
    }
    if (pending === '') return;
    const text = pending;
    pending = '';
    // sonic-boom's synchronous mode: retries while a full pipe refuses the write (EAGAIN).
    syncStdout ??= destination({ dest: 1, sync: true });
    syncStdout.write(text);
  }

  return {
    write(line: string) {
      pending += line;
      if (!scheduled) {
        scheduled = true;
        withPendingLines.add(writeOutNow);
        setImmediate(handOver);
      }
      return true;
    },
    flush(cb) {
      writeOutNow();
      boom.flush(cb);
    },
    flushSync: writeOutNow,
  };
}
