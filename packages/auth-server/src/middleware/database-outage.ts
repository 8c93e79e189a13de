/**
 * Database outages at the provider's endpoints (/auth/token, /auth/revoke,
 * /auth/introspect) → 503 instead of oidc-provider's 500 server_error.
 *
 * oidc-provider catches every error of its routes (adapter reads, our
 * password grant, findAccount) and renders a 500 `server_error`, emitting
 * `server_error` with the request's context and the error. This middleware
 * remembers that error per request and, once the provider has answered,
 * classifies it with @heroes/db's mapDatabaseError.
 *
 * Rules enforced here:
 * - the database unreachable or timing out, inside the provider or in our
 *   middleware before it → 503 `{"error": "temporarily_unavailable",
 *   "error_description": "unable to connect to database"}` (or "timed out
 *   connection to database"), with `Retry-After`, `Cache-Control: no-store`;
 * - what counts as an outage (including pg's plain "Connection terminated
 *   unexpectedly" and pg-pool's connect timeout) is decided by
 *   mapDatabaseError alone, so every server shares one rule;
 * - any other database failure (a statement a pooler lost, an unknown
 *   SQLSTATE) is a 503 `database error` the same way: never a 500; a value
 *   the database refuses is a 400 `invalid_request`;
 * - every other error keeps its answer (a 500 stays a 500; 4xx untouched).
 */
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { RetryLaterError } from '@heroes/http-kit';
import { mapDatabaseError } from './database-answers.ts';
import { oauthTemporarilyUnavailable } from '../provider/temporarily-unavailable.ts';
import { OAuthError } from './oauth-error.ts';

export function createDatabaseOutageMapper(provider: Provider): Middleware {
  const failures = new WeakMap<object, unknown>();
  provider.on('server_error', (ctx: object, err: unknown) => {
    failures.set(ctx, err);
  });

  return async function mapDatabaseOutage(ctx, next) {
    try {
      await next();
    } catch (err) {
      throw outage(err) ?? err;
    }
    const failure = failures.get(ctx);
    if (failure === undefined) return;
    const error = outage(failure);
    if (error) throw error;
  };
}

function outage(err: unknown): OAuthError | undefined {
  const mapped = mapDatabaseError(err);
  if (mapped instanceof RetryLaterError) return oauthTemporarilyUnavailable(mapped);
  return mapped ? new OAuthError(400, 'invalid_request', mapped.message, {}, { expose: true, cause: err }) : undefined;
}
