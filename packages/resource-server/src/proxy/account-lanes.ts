/**
 * Login attempts of one account forwarded LANE_WIDTH at a time per edge process, the others waiting here in order
 * (docs/http.md, "Fair forwarding"): a crowd of guessers of one account queues at the edge, not at the authorization
 * server where every other sign-in would wait behind them. A lane exists while its account has attempts.
 * Usage: const leave = await lanes.enter(account); forward; once the upstream answer is read: leave()
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
