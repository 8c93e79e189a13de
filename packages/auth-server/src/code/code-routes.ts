/**
 * GET and POST /auth/code: the login form and the authorization-code grant
 * (our own Koa routes: oidc-provider 9 has no direct POST to its
 * authorization endpoint). An endpoint is a table of steps:
 *
 *   GET:  parse → checkClient → checkAuthorizationRequest → login form
 *   POST: own origin (check-request-origin.ts, else 403 page) → read form (middleware/read-form.ts) → parse → checkClient → checkAuthorizationRequest
 *         → authenticate user (wrong → form again, with an error; too many
 *           failures of the account or the address → 429 page with Retry-After;
 *           the password-hash queue full → 503 page with Retry-After, at once)
 *         → mintCode → 302 redirect_uri?code&state&iss
 *
 * Other methods: 405 with `Allow` (http-kit's dispatchByMethod).
 * `/auth/code/` (trailing slash) is the same resource: the router is not
 * strict, so it serves the same form and grant.
 *
 * Failures before the redirect URI is trusted render a 400 page; later ones
 * redirect back with `error` (see code-flow-errors.ts).
 */
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { dispatchByMethod, QueueFullError } from '@heroes/http-kit';
import type Provider from 'oidc-provider';
import type { PrismaClient } from '@heroes/db';
import { LoginThrottledError, type ThrottledAuthenticator } from '../throttle/throttled-authenticator.ts';
import { readForm } from '../middleware/read-form.ts';
import { isStorableText } from '../params/storable-text.ts';
import { ROUTES } from '../provider/routes.ts';
import { checkAuthorizationRequest, type AuthorizationRequest } from './check-authorization-request.ts';
import { checkClient, type CodeClient } from './check-client.ts';
import { CROSS_SITE_REFUSED, isOwnOrigin } from './check-request-origin.ts';
import { PageError, RedirectError } from './code-flow-errors.ts';
import { oauthParams, parseCodeRequest, type CodeRequest } from './code-request.ts';
import { renderErrorPage, renderLoginPage } from './login-page.ts';
import { mintCode } from './mint-code.ts';
import { redirectBack } from './redirect.ts';
import { sendPage } from './send-page.ts';

export interface CodeRouteDeps {
  db: PrismaClient;
  provider: Provider;
  authenticate: ThrottledAuthenticator;
  issuer: string;
  authCodeTtl: number;
  /** The resource server's client, refused here (it may only introspect). */
  introspectionOnlyClientId?: string;
}

/**
 * Root-relative, so /auth/code/ (trailing slash, served by the same routes)
 * still posts to /auth/code; the edge forwards /auth/* at the same path, so
 * it is right both directly and behind it (and within CSP form-action 'self').
 */
const FORM_ACTION = ROUTES.authorization;
const BAD_CREDENTIALS = 'Invalid username or password.';
const PARSE_PROBLEMS = {
  repeated: (name: string) => `parameter ${name} must be sent once`,
  'invalid characters': (name: string) => `parameter ${name} contains invalid characters`,
  'too long': (name: string, max?: number) => `parameter ${name} is longer than ${max} characters`,
} as const;

export function createCodeRouter(deps: CodeRouteDeps): Router {
  const router = new Router();

  const showLoginForm: Middleware = (ctx) =>
    handle(ctx, deps, ctx.query, async (client, request) => {
      sendPage(ctx, 200, renderLoginPage({ action: FORM_ACTION, params: oauthParams(request), clientId: client.id }), client.redirectUri);
    });

  const grantCode: Middleware = async (ctx) => {
    if (!isOwnOrigin(ctx, deps.issuer)) return sendPage(ctx, 403, renderErrorPage('access_denied', CROSS_SITE_REFUSED));
    const form = (await readForm(ctx)) ?? {};
    await handle(ctx, deps, form, async (client, request, authorization) => {
      const user = await deps.authenticate(request.username ?? '', request.password ?? '', ctx.ip).catch((err: unknown) => {
        if (err instanceof QueueFullError) {
          ctx.set('Retry-After', String(err.retryAfterSeconds));
          throw new PageError('temporarily_unavailable', 'Too many logins at once; please retry in a moment.', 503);
        }
        if (!(err instanceof LoginThrottledError)) throw err;
        ctx.set('Retry-After', String(err.retryAfterSeconds));
        throw new PageError('temporarily_unavailable', err.message, 429);
      });
      if (!user) {
        const username = request.username !== undefined && isStorableText(request.username) ? request.username : undefined;
        const page = renderLoginPage({ action: FORM_ACTION, params: oauthParams(request), clientId: client.id, username, error: BAD_CREDENTIALS });
        return sendPage(ctx, 200, page, client.redirectUri);
      }
      const code = await mintCode(deps.provider, { client, accountId: String(user.id), authorization, ttl: deps.authCodeTtl });
      redirectBack(ctx, client.redirectUri, { code, state: authorization.state, iss: deps.issuer });
    });
  };

  router.all(ROUTES.authorization, dispatchByMethod([], { GET: [showLoginForm], POST: [grantCode] }));
  return router;
}

type Step = (client: CodeClient, request: CodeRequest, authorization: AuthorizationRequest) => Promise<void>;

async function handle(ctx: Context, deps: CodeRouteDeps, source: Record<string, unknown>, step: Step): Promise<void> {
  let client: CodeClient | undefined;
  let state: string | undefined;
  try {
    const parsed = parseCodeRequest(source);
    if (!parsed.ok) throw new PageError('invalid_request', PARSE_PROBLEMS[parsed.problem](parsed.parameter, parsed.max));
    state = parsed.request.state;
    client = await checkClient(deps.db, parsed.request, deps.introspectionOnlyClientId);
    const authorization = checkAuthorizationRequest(client, parsed.request);
    await step(client, parsed.request, authorization);
  } catch (err) {
    if (err instanceof PageError) return sendPage(ctx, err.status, renderErrorPage(err.error, err.description));
    if (err instanceof RedirectError && client) {
      return redirectBack(ctx, client.redirectUri, { error: err.error, error_description: err.description, state, iss: deps.issuer });
    }
    throw err;
  }
}
