/**
 * Login attempts of one account forwarded a few at a time (docs/http.md,
 * "Fair forwarding"): at most LANE_WIDTH of them are at the authorization
 * server at once per edge process, the others wait here, in order. A
 * thousand guessers arriving at once for one account then queue at the
 * edge (where waiting costs a little memory) instead of at the
 * authorization server and its database, where every other client's
 * sign-in would wait behind them; each gets its first refusal in turn, and
 * their repeats are answered by the edge (repeated-refusals.ts).
 * An account's lane exists while it has attempts in flight or waiting.
 *
 * Usage:
 *   const lanes = new AccountLanes();
 *   const leave = await lanes.enter(account); // when the account has room
 *   ...forward; once the upstream answer is read: leave();
 */
import PQueue from 'p-queue';

/** Login attempts of one account at the authorization server at once, per edge process. */
export const LANE_WIDTH = 4;

export class AccountLanes {
  readonly #lanes = new Map<string, PQueue>();

  /** Resolves once `account` has room, with the function that gives it back (more calls do nothing). */
  enter(account: string): Promise<() => void> {
    let lane = this.#lanes.get(account);
    if (lane === undefined) {
      const created = new PQueue({ concurrency: LANE_WIDTH });
      created.addEventListener('idle', () => {
        if (this.#lanes.get(account) === created) this.#lanes.delete(account);
      });
      this.#lanes.set(account, created);
      lane = created;
    }
    return new Promise((entered) => {
      void lane.add(() => new Promise<void>((left) => {
        let gone = false;
        entered(() => {
          if (gone) return;
          gone = true;
          left();
        });
      }));
    });
  }

  /** Accounts with attempts in flight or waiting (tests, metrics). */
  get size(): number {
    return this.#lanes.size;
  }
}
