/**
 * The logger's stdout: pino's own asynchronous destination (sonic-boom),
 * handed the lines of one turn of the event loop as one string.
 *
 * Why: sonic-boom appends each line to the text it has pending and then
 * measures that text (Buffer.byteLength, which flattens it): a turn that
 * logs n lines while a write is in flight copies the pending text n times,
 * and a busy server logs a request line for every request of a turn (about
 * a third of the request line's cost at 50 connections, docs/performance.md).
 * Handed over once per turn, the text is measured once.
 *
 * Rules:
 * - lines keep the order they were written in; the lines of a turn are
 *   handed over in that turn's check phase (setImmediate), and sonic-boom
 *   writes them as before (at once, or after the write in flight);
 * - nothing more is lost than before: flush(), flushSync() and the exit of
 *   the process (process.exit(), an uncaught exception, the end of the
 *   event loop) write what sonic-boom holds and then the pending lines
 *   synchronously, as pino does for sonic-boom itself; only a SIGKILL
 *   loses the last lines.
 *
 * Usage: `pino(options, turnBatchedStdout())`
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
