/**
 * A bounded work queue for expensive work on libuv's thread pool (bcrypt):
 * at most `concurrency` tasks run, at most `maxQueued` wait, and a task
 * beyond that is refused at once with a 503 (QueueFullError, `Retry-After`)
 * instead of making every caller wait behind an attacker's requests.
 *
 * Rules enforced here:
 * - tasks start in arrival order; a finished task hands its slot to the
 *   oldest waiting one;
 * - a refused task never runs; a failed task frees its slot like any other;
 * - `queued` is the number waiting (the password_hash_queue_depth gauge).
 *
 * Usage:
 *   const queue = new BoundedQueue({ concurrency: libuvPoolSize(), maxQueued: 32 }); // settings/libuv-pool-size.ts
 *   const hash = await queue.run(() => bcrypt.hash(password, 10)); // throws QueueFullError when full
 */
import { ServiceUnavailableError } from '../errors/client-errors.ts';

export interface BoundedQueueOptions {
  /** Tasks running at once (≥ 1). */
  concurrency: number;
  /** Tasks waiting at most (≥ 0); one more is refused. */
  maxQueued: number;
  /** `Retry-After` of a refusal, seconds. Default 1. */
  retryAfterSeconds?: number;
}

/** 503 `{"error":"server busy, retry later"}` with `Retry-After`: the queue was full. */
export class QueueFullError extends ServiceUnavailableError {
  constructor(readonly retryAfterSeconds: number) {
    super('server busy, retry later', { code: 'server_busy', headers: { 'Retry-After': String(retryAfterSeconds) } });
    this.name = 'QueueFullError';
  }
}

export class BoundedQueue {
  readonly #concurrency: number;
  readonly #maxQueued: number;
  readonly #retryAfterSeconds: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(options: BoundedQueueOptions) {
    this.#concurrency = Math.max(1, options.concurrency);
    this.#maxQueued = Math.max(0, options.maxQueued);
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.#waiting.length;
  }

  /** Tasks running. */
  get running(): number {
    return this.#running;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running < this.#concurrency) {
      this.#running++;
    } else if (this.#waiting.length < this.#maxQueued) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve)); // the slot is handed over, still counted
    } else {
      throw new QueueFullError(this.#retryAfterSeconds);
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running--;
    }
  }
}
