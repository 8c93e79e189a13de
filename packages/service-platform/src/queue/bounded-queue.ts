/**
 * A bounded queue for expensive thread-pool work (bcrypt): at most `concurrency` run and `maxQueued` wait; beyond
 * that a task is refused at once (QueueFullError, 503 with Retry-After) rather than queued behind an attacker.
 * Two priorities with separate budgets: `low` (work anyone can cause, e.g. an unknown client secret) never refuses
 * or starves `high` (a user's password); a freed slot goes to the oldest high task first (p-queue's priorities, a
 * second p-queue capping low tasks); `queued` feeds a gauge.
 */
import { QueueFullError } from '@heroes/http-kit';
import PQueue from 'p-queue';

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
}

export type QueuePriority = 'high' | 'low';

const HIGH = 1;
const LOW = 0;

/** 503 `{"error":"server busy, retry later"}` with `Retry-After`: the queue was full. */
export class BoundedQueue {
  /** Every task's slot: high tasks before low ones, each in arrival order. */
  readonly #slots: PQueue;
  /** Low tasks' own budget, entered before #slots: a low task always leaves a slot free. */
  readonly #lowSlots: PQueue;
  readonly #maxQueued: number;
  readonly #lowMaxQueued: number;
  readonly #retryAfterSeconds: number;

  constructor(options: BoundedQueueOptions) {
    const concurrency = Math.max(1, options.concurrency);
    this.#slots = new PQueue({ concurrency });
    this.#lowSlots = new PQueue({ concurrency: Math.min(concurrency, Math.max(1, options.lowConcurrency ?? concurrency - 1)) });
    this.#maxQueued = Math.max(0, options.maxQueued);
    this.#lowMaxQueued = Math.max(0, options.lowMaxQueued ?? Math.ceil(this.#maxQueued / 2));
    this.#retryAfterSeconds = options.retryAfterSeconds ?? 1;
  }

  /** Tasks waiting for a slot (both priorities). */
  get queued(): number {
    return this.#slots.size + this.#lowSlots.size;
  }

  /** Tasks running. */
  get running(): number {
    return this.#slots.pending;
  }

  run<T>(task: () => Promise<T>, { priority = 'high' }: { priority?: QueuePriority } = {}): Promise<T> {
    const slots = this.#slots;
    const slotFree = slots.pending < slots.concurrency;
    if (priority === 'low') {
      const lowSlots = this.#lowSlots;
      const startsNow = slotFree && lowSlots.pending < lowSlots.concurrency;
      if (!startsNow && lowSlots.size + slots.sizeBy({ priority: LOW }) >= this.#lowMaxQueued) return this.#refuse();
      return lowSlots.add(() => slots.add(task, { priority: LOW }));
    }
    if (!slotFree && slots.sizeBy({ priority: HIGH }) >= this.#maxQueued) return this.#refuse();
    return slots.add(task, { priority: HIGH });
  }

  #refuse(): Promise<never> {
    return Promise.reject(new QueueFullError(this.#retryAfterSeconds));
  }
}
