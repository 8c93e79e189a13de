/**
 * Runs callbacks when a response closes (answered, or its connection gone),
 * through one 'close' listener per response however many layers ask: the
 * request log line and the metrics both wait for it on every request.
 *
 * Rules:
 * - callbacks run in the order they were registered, once, when the
 *   response emits 'close' (which it does once: after its end was handed
 *   to the socket, or when the connection closed first);
 * - a callback that throws does not keep the others from running; the
 *   error is rethrown after them, as a listener's would be.
 *
 * Usage: `whenClosed(ctx.res, () => logLine())`
 */
import type { ServerResponse } from 'node:http';

const CALLBACKS = Symbol('whenClosed callbacks');

type Closing = ServerResponse & { [CALLBACKS]?: (() => void) | (() => void)[] };

export function whenClosed(res: ServerResponse, callback: () => void): void {
  const closing = res as Closing;
  const registered = closing[CALLBACKS];
  if (registered === undefined) {
    closing[CALLBACKS] = callback;
    // 'on', not 'once': 'close' comes once, and a once-wrapper would be one more object per request.
    res.on('close', runCallbacks);
  } else if (typeof registered === 'function') {
    closing[CALLBACKS] = [registered, callback];
  } else {
    registered.push(callback);
  }
}

function runCallbacks(this: Closing): void {
  const registered = this[CALLBACKS];
  this[CALLBACKS] = undefined;
  if (typeof registered === 'function') return registered();
  if (registered === undefined) return;
  let failure: { error: unknown } | undefined;
  for (const callback of registered) {
    try {
      callback();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
