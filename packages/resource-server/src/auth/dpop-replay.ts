/**
 * The edge's DPoP replay check (RFC 9449 section 11.1): a proof (key and `jti`) is accepted at most once while its
 * `iat` is in the window, by any replica, even at once, through @heroes/db's claimEdgeProofIds (one atomic statement);
 * database down → 503. One statement in flight at a time, claims arriving meanwhile share the next (at most
 * MAX_BATCH: a statement costs far more than a row); a request is answered once its own row is known fresh.
 */
import { claimEdgeProofIds, proofIdKey, type EdgeProofIdClaim, type Queryable } from '@heroes/db/pg';

const MAX_BATCH = 500;
const MAX_IN_FLIGHT = 1;

interface Pending extends EdgeProofIdClaim {
  resolve(first: boolean): void;
  reject(err: unknown): void;
}

export interface ReplayCheck {
  /**
   * True the first time this key's `jti` is seen (until `expiresAtMs`); `acceptableFromMs`: the earliest moment any
   * replica could have accepted the proof (`iat` minus the window).
   */
  firstUse(jkt: string, jti: string, expiresAtMs: number, acceptableFromMs: number): Promise<boolean>;
}

export function createReplayCheck(db: Queryable): ReplayCheck {
  const pending: Pending[] = [];
  let inFlight = 0;
  let scheduled = false;

  /** The next batch goes on a later turn (claims of this turn join it), once a statement slot is free. */
  function schedule(): void {
    if (scheduled || inFlight >= MAX_IN_FLIGHT || pending.length === 0) return;
    scheduled = true;
    setImmediate(flush);
  }

  function flush(): void {
    scheduled = false;
    const batch = pending.splice(0, MAX_BATCH);
    inFlight++;
    claimEdgeProofIds(db, batch)
      .then(
        (results) => batch.forEach((claim, index) => claim.resolve(results[index] === true)),
        (err: unknown) => batch.forEach((claim) => claim.reject(err)),
      )
      .finally(() => {
        inFlight--;
        schedule();
      });
    schedule();
  }

  return {
    firstUse(jkt, jti, expiresAtMs, acceptableFromMs) {
      return new Promise<boolean>((resolve, reject) => {
        pending.push({ id: proofIdKey('edge', jkt, jti), expiresAtMs, acceptableFromMs, resolve, reject });
        schedule();
      });
    },
  };
}
