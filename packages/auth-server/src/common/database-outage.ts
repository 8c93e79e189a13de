/**
 * Database outages at /auth/token, /auth/revoke and /auth/introspect → 503 instead of oidc-provider's 500: the error
 * of the library's `server_error` event is remembered per request and classified, once it answered, by the one
 * database-error classifier (unreachable or timing out → 503 `temporarily_unavailable` with Retry-After, any other
 * database failure 503, a value the database refuses 400). Every other error keeps its answer.
 */
import type { Middleware } from 'koa';
import type Provider from 'oidc-provider';
import { answerDatabaseFailures, RetryLaterError } from '@heroes/http-kit';
import { classifyDatabaseError } from '@heroes/db/database-errors';
import { oauthTemporarilyUnavailable } from './temporarily-unavailable.ts';
import { OAuthError } from './oauth-error.ts';
import { requestState } from '../request-state.ts';

export function createDatabaseOutageMapper(provider: Provider): Middleware {
  provider.on('server_error', (ctx: { state: unknown }, err: unknown) => {
    requestState(ctx).serverError = err;
  });

  return async function mapDatabaseOutage(ctx, next) {
    try {
      await next();
    } catch (err) {
      throw outage(err) ?? err;
    }
    const failure = requestState(ctx).serverError;
    if (failure === undefined) return;
    const error = outage(failure);
    if (error) throw error;
  };
}

const mapDatabaseError = answerDatabaseFailures(classifyDatabaseError);

function outage(err: unknown): OAuthError | undefined {
  const mapped = mapDatabaseError(err);
  if (mapped instanceof RetryLaterError) return oauthTemporarilyUnavailable(mapped);
  return mapped ? new OAuthError(400, 'invalid_request', mapped.message, {}, { expose: true, cause: err }) : undefined;
}
