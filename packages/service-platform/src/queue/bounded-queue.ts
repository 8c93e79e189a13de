/**
 * A bounded work queue for expensive work on libuv's thread pool (bcrypt):
 * at most `concurrency` tasks run, at most `maxQueued` wait, and a task
 * beyond that is refused at once with a 503 (QueueFullError, `Retry-After`)
 * instead of making every caller wait behind an attacker's requests.
 *
 * Rules enforced here:
 * - two priorities with separate budgets: `low` tasks (work anyone can
 *   cause without credentials, e.g. an unknown client secret) run at most
 *   `lowConcurrency` at once (default concurrency − 1, at least 1) and wait
 *   at most `lowMaxQueued` (default half of maxQueued); `high` tasks (a
 *   user's password) have the whole `concurrency` and their own
 *   `maxQueued`, so a flood of low tasks can never refuse or starve them;
 * - a finished task hands its slot to the oldest waiting high task, else to
 *   the oldest waiting low one (if the low cap allows); within a priority,
 *   tasks start in arrival order;
 * - a refused task never runs; a failed task frees its slot like any other;
 * - `queued` is the number waiting, both priorities (the
 *   password_hash_queue_depth gauge);
 * - traced (docs/operations.md, "Tracing"): a task that waited for a slot
 *   has a span `<name> queue wait`, every task a span `<name>` (name
 *   default `password hash`), each with the priority.
 *
 * Usage:
 *   const queue = new BoundedQueue({ concurrency: libuvPoolSize(), maxQueued: 32 }); // settings/libuv-pool-size.ts
 *   const hash = await queue.run(() => bcrypt.hash(password, 10)); // throws QueueFullError when full
 *   const ok = await queue.run(() => bcrypt.compare(secret, hash), { priority: 'low' });
 */
import { QueueFullError } from '@heroes/http-kit';
import { inSpan } from '../tracing/spans.ts';

export interface BoundedQueueOptions {
  /** Tasks running at once (≥ 1). */
  concurrency: number;
  /** High-priority tasks waiting at most (≥ 0); one more is refused. */
  maxQueued: number;
  /** Low-priority tasks running at once. Default concurrency − 1 (at least 1). */
  lowConcurrency?: number;
  /** Low-priority tasks waiting at most. Default half of maxQueued (rounded up). */
  lowMaxQueued?: number;
  /** `Retry-After` of a refusal, seconds. Default 1. */
  retryAfterSeconds?: number;
  /** What the tasks are, in span names. Default `password hash`. */
  name?: string;
}

export type QueuePriority = 'high' | 'low';

/** 503 `{"error":"server busy, retry later"}` with `Retry-After`: the queue was full. */
export class BoundedQueue {
  readonly #concurrency: number;
  readonly #maxQueued: number;
  readonly #lowConcurrency: number;
  readonly #lowMaxQueued: number;
  readonly #retryAfterSeconds: number;
  readonly #waitSpan: string;
  readonly #taskSpan: string;
  #running = 0;
  #runningLow = 0;
  readonly #waiting: Array<() => void> = [];
  readonly #waitingLow: Array<() => void> = [];

  constructor(options: BoundedQueueOptions) {
    this.#concurrency = Math.max(1, options.concurrency);
    this.#maxQueued = Math.max(0, options.maxQueued);
    this.#lowConcurrency = Math.min(this.#concurrency, Math.max(1, options.lowConcurrency ?? this.#concurrency - 1));
    this.#lowMaxQueued = Math.max(0, options.lowMaxQueued ?? Math.ceil(this.#maxQueued / 2));
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 1;
    this.#taskSpan = options.name ?? 'password hash';
    this.#waitSpan = `${this.#taskSpan} queue wait`;
  }

  /** Tasks waiting for a slot (both priorities). */
  get queued(): number {
    return this.#waiting.length + this.#waitingLow.length;
  }

  /** Tasks running. */
  get running(): number {
    return this.#running;
  }

  async run<T>(task: () => Promise<T>, { priority = 'high' }: { priority?: QueuePriority } = {}): Promise<T> {
    const low = priority === 'low';
    const attributes = { 'heroes.queue.priority': priority };
    const waiting = this.#takeSlot(low);
    if (waiting) await inSpan(this.#waitSpan, () => waiting, attributes);
    try {
      return await inSpan(this.#taskSpan, task, attributes);
    } finally {
      this.#running--;
      if (low) this.#runningLow--;
      this.#handOver();
    }
  }

  /**
   * Takes a free slot at once (undefined), or a place in the queue: a promise
   * resolved once a slot is handed over, already counted. Throws QueueFullError
   * when too many wait.
   */
  #takeSlot(low: boolean): Promise<void> | undefined {
    const [waiting, max] = low ? [this.#waitingLow, this.#lowMaxQueued] : [this.#waiting, this.#maxQueued];
    if (this.#mayStart(low) && waiting.length === 0) {
      this.#start(low);
      return undefined;
    }
    if (waiting.length < max) return new Promise<void>((resolve) => waiting.push(resolve));
    throw new QueueFullError(this.#retryAfterSeconds);
  }

  #mayStart(low: boolean): boolean {
    return this.#running < this.#concurrency && (!low || this.#runningLow < this.#lowConcurrency);
  }

  #start(low: boolean): void {
    this.#running++;
    if (low) this.#runningLow++;
  }

  /** A free slot goes to the oldest high task, else to the oldest low one. */
  #handOver(): void {
    for (const low of [false, true]) {
      const waiting = low ? this.#waitingLow : this.#waiting;
      if (waiting.length > 0 && this.#mayStart(low)) {
        this.#start(low);
        waiting.shift()!();
        return;
      }
    }
  }
}
