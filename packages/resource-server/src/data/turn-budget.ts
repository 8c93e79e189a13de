/**
 * Bytes that paced streams together may hand to their sockets in one turn of the event loop (docs/performance.md,
 * "List cache"). Without it, 300 listings whose sockets drain in the same poll phase each write their next chunk
 * in that one turn (20 MB of socket writes) and every other request waits behind them. A stream asks before each
 * chunk; once the turn's bytes are spent it waits, first come first served, for the next turn's check phase, so
 * each turn's listing writes stay near `bytesPerTurn` and the requests that arrived meanwhile go first.
 */
export class TurnBudget {
  #left: number;
  #refillDue = false;
  #waiting: Array<() => void> = [];

  constructor(readonly bytesPerTurn: number) {
    this.#left = bytesPerTurn;
  }

  /**
   * True when a chunk of `bytes` may go now (counted against this turn: the chunk that crosses the bound still goes,
   * so a chunk larger than the budget is never stuck); else false, and `resume` runs in a later turn.
   */
  take(bytes: number, resume: () => void): boolean {
    this.#dueRefill();
    if (this.#left > 0) {
      this.#left -= bytes;
      return true;
    }
    this.#waiting.push(resume);
    return false;
  }

  /** Streams waiting for a later turn. */
  get waiting(): number {
    return this.#waiting.length;
  }

  #dueRefill(): void {
    if (this.#refillDue) return;
    this.#refillDue = true;
    setImmediate(this.#refill);
  }

  readonly #refill = (): void => {
    this.#refillDue = false;
    this.#left = this.bytesPerTurn;
    // Those that waited go first, in order, until this turn's bytes are spent; the rest wait for the next.
    const waiting = this.#waiting;
    this.#waiting = [];
    let i = 0;
    while (i < waiting.length && this.#left > 0) waiting[i++]!();
    if (i < waiting.length) {
      this.#waiting = [...waiting.slice(i), ...this.#waiting];
      this.#dueRefill();
    }
  };
}
