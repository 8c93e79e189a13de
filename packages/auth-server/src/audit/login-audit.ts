/**
 * The audit of user logins (password grant, login form): login.succeeded, login.failed (unknown user, wrong password,
 * disabled), login.throttled (how long), each with the username as typed, the client, the address and the request id.
 */
import type { Queryable } from '@heroes/db';
import type { LoginAuditor } from '../throttle/throttled-authenticator.ts';
import type { AuditTrail } from './audit-trail.ts';

export function createLoginAuditor(trail: AuditTrail, pool: Queryable): LoginAuditor {
  return (username, { address, clientId }, why) => {
    const who = { username, clientId, address };
    return {
      succeeded: (db) => trail.recordWith({ type: 'login.succeeded', ...who }, db),
      // `why` is read when the outcome is written: the check has filled it by then.
      failed: (db) => trail.recordWith({ type: 'login.failed', ...who, reason: why.reason ?? 'invalid credentials' }, db),
      refused: (retryAfterSeconds) => trail.record(pool, { type: 'login.throttled', ...who, reason: `too many failed logins; retry after ${retryAfterSeconds} s` }),
    };
  };
}
