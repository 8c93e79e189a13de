/**
 * POST /register?return_to=/auth/code?…, the login page's "Create account" form: the API's registration runs; success
 * is a 303 back with `registered=1`; a refusal the form again as the authorization server draws it
 * (registration-form-again.ts), else a 303 with `register_error=<code>` (codes of a list, never text). return_to must
 * be a login-form path (no open redirect); cross-site forms → 403, nothing written. Without return_to: the API's alone.
 */
import type { Middleware } from 'koa';
import { answerDatabaseFailures, ForbiddenError, HttpError, toProblem } from '@heroes/http-kit';
import { classifyDatabaseError } from '@heroes/db/database-errors';
import { REGISTERED, type RegisterErrorCode } from '@heroes/oauth-scopes';
import { REQUIRED_MESSAGE, typedUsername } from './read-registration.ts';
import { registrationFormAgain, type FormAgainOptions } from './registration-form-again.ts';
import { validationFailed } from '../validation-error.ts';

const LOGIN_FORM = '/auth/code?';
const mapDatabaseError = answerDatabaseFailures(classifyDatabaseError);
const MAX_RETURN_TO = 8192;

/** Usage: `router.all('/register', dispatchByMethod([], { POST: [registerFromPage({ publicBaseUrl, authServerUrl, timeoutMs }), register] }))` */
export function registerFromPage(options: FormAgainOptions & { publicBaseUrl: string }): Middleware {
  const base = options.publicBaseUrl.replace(/\/+$/, '');
  const ownOrigin = new URL(base).origin;
  return async function registerFromLoginPage(ctx, next) {
    const returnTo = ctx.query['return_to'];
    if (returnTo === undefined) return next();
    if (typeof returnTo !== 'string' || !returnTo.startsWith(LOGIN_FORM) || returnTo.length > MAX_RETURN_TO) {
      throw validationFailed(`'return_to' must be a path of the login form (${LOGIN_FORM}…)`);
    }
    const claimed = ctx.get('Origin') || originOf(ctx.get('Referer'));
    if ((ctx.get('Origin') || ctx.get('Referer')) && claimed !== ownOrigin) {
      throw new ForbiddenError("cross-site request refused: create accounts from this service's own login page");
    }
    try {
      await next();
    } catch (err) {
      const problem = toProblem(err, mapDatabaseError);
      if (problem.status >= 500 && problem.status !== 503) throw err;
      const code = outcomeCode(err, problem);
      const page = await registrationFormAgain(options, returnTo, code, typedUsername(ctx));
      if (page) {
        ctx.set({ ...problem.headers, ...page.headers });
        ctx.status = problem.status;
        ctx.body = page.html;
        return;
      }
      ctx.status = 303;
      return ctx.redirect(`${base}${returnTo}&${new URLSearchParams({ prompt: 'create', register_error: code })}`);
    }
    ctx.status = 303;
    ctx.redirect(`${base}${returnTo}&${new URLSearchParams({ registered: REGISTERED })}`);
  };
}

/** The code of a refusal, from its status and, for a 400, the field its reasons name. */
function outcomeCode(err: unknown, problem: { status: number; body: { error: string } & Record<string, unknown> }): RegisterErrorCode {
  if (problem.status === 409) return err instanceof HttpError && err.code === 'username_too_similar' ? 'username_similar' : 'username_taken';
  if (problem.status === 429) return 'too_many';
  if (problem.status === 503) return 'unavailable';
  if (problem.body.error === REQUIRED_MESSAGE) return 'missing';
  const reasons = Array.isArray(problem.body['reasons']) ? problem.body['reasons'].filter((reason) => typeof reason === 'string') : [];
  if (reasons.some((reason) => reason.startsWith("'username'"))) return 'username_invalid';
  if (reasons.some((reason) => reason.startsWith("'password'"))) return 'password_rejected';
  return 'invalid';
}

function originOf(url: string): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}
