/**
 * A bounded queue for expensive thread-pool work (bcrypt): at most `concurrency` run and `maxQueued` wait; beyond that
 * a task is refused at once (QueueFullError, 503 with Retry-After) rather than queued behind an attacker. `low` work
 * (anyone can cause it: an unknown client secret) has its own budget and never refuses or starves `high` (a password);
 * `queued` feeds a gauge. Traced: `<name> queue wait` for a task that waited, `<name>` for each (docs/operations.md).
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
