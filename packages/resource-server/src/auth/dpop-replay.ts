/**
 * The edge's DPoP replay check (RFC 9449 section 11.1): a proof is accepted
 * once by ANY replica, through the dpop_proof_ids table in PostgreSQL
 * (@heroes/db's claimProofIds, one atomic statement). The guarantee: a
 * proof (its key and `jti`) is accepted at most once while its `iat` is
 * within the window, whichever replicas receive it, including at the same
 * moment; with the database unreachable no DPoP request is served (503), so
 * a replay never gets through unchecked.
 *
 * Claims share statements: one statement is in flight at a time, and the
 * claims that arrive meanwhile wait for it, then go together (a batch of at
 * most MAX_BATCH ids), so the batch grows with the load and a request waits
 * at most for the statement before its own. A statement costs far more
 * than a row (on the 2-core bench machine ~0.5 ms of CPU in the edge and as
 * much in PostgreSQL, against ~10 µs a row in batches of 64): one statement
 * per turn of the event loop made batches of ~16 and cost ~130 µs of edge
 * CPU per request more than this (docs/performance.md). Each request is
 * answered only once its own row is known fresh.
 *
 * Usage:
 *   const replay = createReplayCheck(pool);
 *   if (!(await replay.firstUse(jkt, jti, expiresAtMs))) refuse();
 */
import { claimProofIds, proofIdKey, type ProofIdClaim, type Queryable } from '@heroes/db/pg';

const MAX_BATCH = 500;
const MAX_IN_FLIGHT = 1;

interface Pending extends ProofIdClaim {
  resolve(first: boolean): void;
  reject(err: unknown): void;
}

export interface ReplayCheck {
  /** True the first time this key's `jti` is seen (until `expiresAtMs`). */
  firstUse(jkt: string, jti: string, expiresAtMs: number): Promise<boolean>;
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
    claimProofIds(db, batch)
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
    firstUse(jkt, jti, expiresAtMs) {
      return new Promise<boolean>((resolve, reject) => {
        pending.push({ id: proofIdKey('edge', jkt, jti), expiresAtMs, resolve, reject });
        schedule();
      });
    },
  };
}
