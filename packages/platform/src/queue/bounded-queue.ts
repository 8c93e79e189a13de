/**
 * A bounded queue for thread-pool work (bcrypt) on p-queue: at most `concurrency` run and `maxQueued` wait; beyond
 * that a task is refused at once (QueueFullError, 503 with Retry-After) rather than queued behind an attacker. `low`
 * work (anyone can cause it: an unknown client secret) has its own p-queue and never refuses or starves `high` (a
 * password); `queued` feeds a gauge. Traced: `<name> queue wait` for a task that waited, `<name>` for each.
 */
import { QueueFullError } from '@heroes/http-kit';
import PQueue from 'p-queue';
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

/** p-queue priorities: a freed slot goes to the oldest high task, else to the oldest low one. */
const PRIORITY = { high: 1, low: 0 } as const;

/** 503 `{"error":"server busy, retry later"}` with `Retry-After`: the queue was full. */
export class BoundedQueue {
  /** Every task's slot. */
  readonly #slots: PQueue;
  /** Low tasks pass here first: fewer of them than slots run at once. */
  readonly #lowSlots: PQueue;
  readonly #maxQueued: number;
  readonly #lowMaxQueued: number;
  readonly #retryAfterSeconds: number;
  readonly #waitSpan: string;
  readonly #taskSpan: string;

  constructor(options: BoundedQueueOptions) {
    const concurrency = Math.max(1, options.concurrency);
    this.#slots = new PQueue({ concurrency });
    this.#lowSlots = new PQueue({ concurrency: Math.min(concurrency, Math.max(1, options.lowConcurrency ?? concurrency - 1)) });
    this.#maxQueued = Math.max(0, options.maxQueued);
    this.#lowMaxQueued = Math.max(0, options.lowMaxQueued ?? Math.ceil(this.#maxQueued / 2));
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 1;
    this.#taskSpan = options.name ?? 'password hash';
    this.#waitSpan = `${this.#taskSpan} queue wait`;
  }

  /** Tasks waiting for a slot (both priorities). */
  get queued(): number {
    return this.#slots.size + this.#lowSlots.size;
  }

  /** Tasks running. */
  get running(): number {
    return this.#slots.pending;
  }

  async run<T>(task: () => Promise<T>, { priority = 'high' }: { priority?: QueuePriority } = {}): Promise<T> {
    const attributes = { 'heroes.queue.priority': priority };
    const slots = this.#slots;
    const lowSlots = this.#lowSlots;
    const low = priority === 'low';
    const startsNow = slots.pending < slots.concurrency && (!low || lowSlots.pending < lowSlots.concurrency);
    const waiting = low ? lowSlots.size + slots.sizeBy({ priority: PRIORITY.low }) : slots.sizeBy({ priority: PRIORITY.high });
    if (!startsNow && waiting >= (low ? this.#lowMaxQueued : this.#maxQueued)) throw new QueueFullError(this.#retryAfterSeconds);
    let started = (): void => {};
    const start = new Promise<void>((resolve) => (started = resolve));
    const traced = (): Promise<T> => {
      started();
      return inSpan(this.#taskSpan, task, attributes);
    };
    const done = low ? lowSlots.add(() => slots.add(traced, { priority: PRIORITY.low })) : slots.add(traced, { priority: PRIORITY.high });
    if (!startsNow) await inSpan(this.#waitSpan, () => start, attributes);
    return done;
  }
}
