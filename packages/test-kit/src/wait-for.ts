/**
 * The one way tests wait for what they cannot subscribe to: poll `condition` until truthy and return the value.
 * Never a fixed sleep, never a bound on duration (CI is a loaded 2-core box; times belong to `npm run bench`). The
 * deadline (30 s) only catches a hang and throws `message`; a throwing condition counts as "not yet".
 * Usage: await waitFor(async () => (await fetch(url)).status === 401, { message: 'never refused' })
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
