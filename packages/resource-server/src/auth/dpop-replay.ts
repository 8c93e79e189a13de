/**
 * The edge's DPoP replay check (RFC 9449 section 11.1): a proof (key and `jti`) is accepted at most once while its
 * `iat` is in the window, by any replica, even at the same moment, through dpop_proof_ids (@heroes/db's
 * claimProofIds, one atomic statement); with the database down no DPoP request is served (503). Claims of one
 * turn of the event loop share one statement (at most MAX_BATCH).
 */
import { claimProofIds, proofIdKey, type ProofIdClaim, type Queryable } from '@heroes/db/pg';

const MAX_BATCH = 500;

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

  function flush(): void {
    const batch = pending.splice(0, MAX_BATCH);
    if (pending.length > 0) setImmediate(flush);
    claimProofIds(db, batch).then(
      (results) => batch.forEach((claim, index) => claim.resolve(results[index] === true)),
      (err: unknown) => batch.forEach((claim) => claim.reject(err)),
    );
  }

  return {
    firstUse(jkt, jti, expiresAtMs) {
      return new Promise<boolean>((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        pending.push({ id: proofIdKey('edge', jkt, jti), expiresAtMs, resolve, reject });
      });
    },
  };
}
