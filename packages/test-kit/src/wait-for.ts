/**
 * Waits for something to happen that a test cannot subscribe to (a log line,
 * a row, a metric, a restarted process, a revoked token being refused):
 * polls `condition` until it returns a truthy value, and returns that value.
 * The one way tests wait: never a fixed sleep before asserting, never a
 * bound on how long it took (CI is a loaded 2-core box; times are measured
 * in `npm run bench`).
 *
 * The deadline only catches a hang: it is generous (30 s by default) and
 * exceeding it throws with `message`. A condition that throws (e.g. a fetch
 * to a server that is restarting) counts as "not yet"; its last error is
 * reported if the deadline passes.
 *
 * Usage:
 *   const line = await waitFor(() => logs.find((l) => l['msg'] === 'request'));
 *   await waitFor(async () => (await fetch(url)).status === 401, { message: 'the token was never refused' });
 */
export interface WaitForOptions {
  /** Fails after this long; a guard against hangs, not a measure (default 30 s). */
  timeoutMs?: number;
  /** Pause between two checks (default 20 ms). */
  intervalMs?: number;
  /** Said when the deadline passes (a function is called then, e.g. to show a process's output). */
  message?: string | (() => string);
}

export async function waitFor<T>(condition: () => T | Promise<T>, options: WaitForOptions = {}): Promise<Exclude<T, false | 0 | '' | null | undefined>> {
  const { timeoutMs = 30_000, intervalMs = 20, message = 'the condition never held' } = options;
  const deadline = performance.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await condition();
      if (value) return value as Exclude<T, false | 0 | '' | null | undefined>;
    } catch (err) {
      lastError = err;
    }
    if (performance.now() >= deadline) {
      const said = typeof message === 'function' ? message() : message;
      const cause = lastError === undefined ? '' : ` (last error: ${lastError instanceof Error ? lastError.message : String(lastError)})`;
      throw new Error(`waited ${timeoutMs} ms: ${said}${cause}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
