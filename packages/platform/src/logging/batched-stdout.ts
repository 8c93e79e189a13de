/**
 * Kept over pino's minLength (it measures its whole pending text per line): with it GET /heroes cost 1.66× the anchor's CPU/req vs 1.43× (same-run A/B; goal 1.5×).
 * The logger's stdout: sonic-boom (pino's own destination) handed the lines of BATCH_MS as one string, one asynchronous
 * write however many turns of the event loop they came in. Lines keep their order; flush(), flushSync() and the
 * process's exit (process.exit(), an uncaught exception, the loop's end) write what is pending synchronously, so only
 * SIGKILL loses lines. Usage: pino(options, batchedStdout())
 */
import { destination, type DestinationStream } from 'pino';

/**
 * How long the first line of a batch waits for more, ms. A turn's lines alone are too few: at a thousand requests a
 * second each comes in a turn of its own, and each write costs a hop to libuv's thread pool and back.
 */
export const BATCH_MS = 10;

/** What the lines are handed to (sonic-boom; tests pass their own). */
export type LineSink = Pick<ReturnType<typeof destination>, 'write' | 'flush' | 'flushSync'>;

export interface BatchedStream extends DestinationStream {
  flush(cb?: (err?: Error) => void): void;
  flushSync(): void;
}

/** Streams with lines not yet handed over: written out when the process exits. */
const withPendingLines = new Set<() => void>();
let exitHookInstalled = false;
let syncStdout: ReturnType<typeof destination> | undefined;

function writeAllPending(): void {
  for (const writeOut of withPendingLines) writeOut();
}

export function batchedStdout({ windowMs = BATCH_MS, sink }: { windowMs?: number; sink?: LineSink } = {}): BatchedStream {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', writeAllPending);
  }
  const boom: LineSink = sink ?? destination({ dest: 1, sync: false });
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
   * Synchronously: what sonic-boom holds, then the pending lines (handed to
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
        setTimeout(handOver, windowMs);
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
