/**
 * POST /register?return_to=/auth/code?… : the login page's "Create account"
 * form (OpenID Connect prompt=create). The registration itself is the next
 * step's (the JSON API's, unchanged); this step turns its answer into a
 * redirect back to the login form, as a browser needs:
 * - success → 303 to return_to with `registered=<username>` (the login form
 *   says so and fills the username in);
 * - a refusal the API would answer (400, 409, 429, 503) → 303 to return_to
 *   with `prompt=create&register_error=<its message>` (the form again);
 * - return_to must be a path of the login form (`/auth/code?…`), so the
 *   redirect never leaves the service (no open redirect);
 * - cross-site forms are refused as the login form refuses them: an `Origin`
 *   (or, without it, `Referer`) other than PUBLIC_BASE_URL's origin → 403,
 *   nothing written; requests with neither header are accepted.
 * Without return_to the request is the API's alone.
 */
import type { Middleware } from 'koa';
import { mapDatabaseError } from '@heroes/db/database-errors';
import { ForbiddenError, toProblem } from '@heroes/http-kit';
import { validationFailed } from '../validation-error.ts';

const LOGIN_FORM = '/auth/code?';
const MAX_RETURN_TO = 8192;

/** Usage: `router.all('/register', dispatchByMethod([], { POST: [registerFromPage(publicBaseUrl), register] }))` */
export function registerFromPage(publicBaseUrl: string): Middleware {
  const base = publicBaseUrl.replace(/\/+$/, '');
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
      ctx.status = 303;
      return ctx.redirect(`${base}${returnTo}&${new URLSearchParams({ prompt: 'create', register_error: sentence(problem.body) })}`);
    }
    const { username } = ctx.body as { username: string };
    ctx.status = 303;
    ctx.redirect(`${base}${returnTo}&${new URLSearchParams({ registered: username })}`);
  };
}

/** The refusal as one line: `entity validation failed: 'password' must be …`, `entity_already_exists`, … */
function sentence(body: { error: string } & Record<string, unknown>): string {
  const reasons = Array.isArray(body['reasons']) ? body['reasons'].filter((reason) => typeof reason === 'string') : [];
  const text = reasons.length > 0 ? `${body.error}: ${reasons.join('; ')}` : body.error;
  return body.error === 'entity_already_exists' ? 'That username is taken.' : text.slice(0, 300);
}

function originOf(url: string): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}
