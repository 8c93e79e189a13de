/**
 * GET and POST /auth/code, the login form and the code grant (oidc-provider has no direct POST to its authorization
 * endpoint), steps below. POST refuses cross-site posts (403), checks client and request, authenticates (wrong → the
 * form again; 429, 503) and redirects with the code; before the redirect URI is trusted failures are 400 pages.
 * `prompt=create` redraws "Create account" with the body's username (typed text never from a query, messages by code).
 */
import Router from '@koa/router';
import { resourceIdentifier } from '@heroes/oauth-scopes';
import type { Context, Middleware } from 'koa';
import { dispatchByMethod, QueueFullError, RetryLaterError, type FormValue } from '@heroes/http-kit';
import type Provider from 'oidc-provider';
import type { PrismaClient } from '@heroes/db';
import { REGISTERED, REGISTERED_MESSAGE, registerErrorMessage } from '@heroes/oauth-scopes';
import type { ThrottledAuthenticator } from '../../throttle/throttled-authenticator.ts';
import { readForm } from '../../common/read-form.ts';
import { isStorableText } from '../../params/storable-text.ts';
import { ROUTES } from '../../common/routes.ts';
import { checkAuthorizationRequest, type AuthorizationRequest } from './check-authorization-request.ts';
import { checkClient, type CodeClient } from './check-client.ts';
import { CROSS_SITE_REFUSED, isOwnOrigin } from './check-request-origin.ts';
import { PageError, RedirectError } from './code-flow-errors.ts';
import { oauthParams, parseCodeRequest, type CodeRequest } from './code-request.ts';
import { renderErrorPage, renderLoginPage, renderRegistrationPage } from './login-page.ts';
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
/** The login form of this authorization request (GET), and its "Create account" form. */
const signInHrefOf = (request: CodeRequest) => `${FORM_ACTION}?${new URLSearchParams(oauthParams(request))}`;
const createAccountHrefOf = (request: CodeRequest) => `${signInHrefOf(request)}&prompt=create`;
const BAD_CREDENTIALS = 'Invalid username or password.';
/** The edge's registration route (same origin for the browser, so within CSP form-action 'self'). */
const REGISTER_ACTION = '/register';

/** The "Create account" form of this authorization request: posts to the edge, which comes back to its login form. */
function registrationPage(request: CodeRequest, client: CodeClient, error: string | undefined, username?: string): string {
  const signInHref = signInHrefOf(request);
  const action = `${REGISTER_ACTION}?${new URLSearchParams({ return_to: signInHref })}`;
  return renderRegistrationPage({ action, clientId: client.id, signInHref, error, username });
}

const PARSE_PROBLEMS = {
  repeated: (name: string) => `parameter ${name} must be sent once`,
  'invalid characters': (name: string) => `parameter ${name} contains invalid characters`,
  'too long': (name: string, max?: number) => `parameter ${name} is longer than ${max} characters`,
} as const;

/** What the steps of one request learn, in the order they learn it. */
interface CodeFlow {
  form?: Record<string, FormValue>;
  state?: string;
  request?: CodeRequest;
  client?: CodeClient;
  authorization?: AuthorizationRequest;
  accountId?: string;
}

const flowOf = (ctx: Context): CodeFlow => ((ctx.state as { codeFlow?: CodeFlow }).codeFlow ??= {});

/** The steps after the client and the authorization request were checked: each found them set. */
function checked(ctx: Context): { request: CodeRequest; client: CodeClient; authorization: AuthorizationRequest } {
  const { request, client, authorization } = flowOf(ctx);
  if (!request || !client || !authorization) throw new Error('a /auth/code step ran before the request was checked');
  return { request, client, authorization };
}

export function createCodeRouter(deps: CodeRouteDeps): Router {
  const heroApi = resourceIdentifier(deps.issuer);
  const answerFlowErrors: Middleware = async function answerFlowErrors(ctx, next) {
    try {
      await next();
    } catch (err) {
      const { client, state } = flowOf(ctx);
      if (err instanceof PageError) return sendPage(ctx, err.status, renderErrorPage(err.error, err.description));
      if (err instanceof RedirectError && client) {
        return redirectBack(ctx, client.redirectUri, { error: err.error, error_description: err.description, state, iss: deps.issuer });
      }
      throw err;
    }
  };

  const parseFrom = (source: (ctx: Context) => Record<string, unknown>): Middleware =>
    async function parseParameters(ctx, next) {
      const parsed = parseCodeRequest(source(ctx));
      if (!parsed.ok) throw new PageError('invalid_request', PARSE_PROBLEMS[parsed.problem](parsed.parameter, parsed.max));
      Object.assign(flowOf(ctx), { request: parsed.request, state: parsed.request.state });
      return next();
    };
  const parseQuery = parseFrom((ctx) => ctx.query);
  const parseForm = parseFrom((ctx) => flowOf(ctx).form ?? {});

  const checkClientStep: Middleware = async function checkClientStep(ctx, next) {
    flowOf(ctx).client = await checkClient(deps.db, flowOf(ctx).request ?? {}, deps.introspectionOnlyClientId);
    return next();
  };

  const checkAuthorizationStep: Middleware = async function checkAuthorizationStep(ctx, next) {
    const flow = flowOf(ctx);
    if (!flow.client || !flow.request) throw new Error('checkAuthorizationStep ran before checkClientStep');
    flow.authorization = checkAuthorizationRequest(flow.client, flow.request, heroApi);
    return next();
  };

  const showLoginForm: Middleware = async function showLoginForm(ctx) {
    const { client, request } = checked(ctx);
    // The edge's POST /register sends the browser back here with a code (registered=1, or register_error=<code>
    // when it could not show the form again itself): the page shows its own words for a known code, nothing for any other value.
    if (ctx.query['prompt'] === 'create') {
      return sendPage(ctx, 200, registrationPage(request, client, registerErrorMessage(ctx.query['register_error'])), client.redirectUri);
    }
    const page = renderLoginPage({
      action: FORM_ACTION,
      params: oauthParams(request),
      clientId: client.id,
      notice: ctx.query['registered'] === REGISTERED ? REGISTERED_MESSAGE : undefined,
      createAccountHref: createAccountHrefOf(request),
    });
    sendPage(ctx, 200, page, client.redirectUri);
  };

  const showRegistrationFormAgain: Middleware = async function showRegistrationFormAgain(ctx, next) {
    const form = flowOf(ctx).form ?? {};
    if (form['prompt'] !== 'create') return next();
    const { client, request } = checked(ctx);
    const username = request.username !== undefined && isStorableText(request.username) ? request.username : undefined;
    sendPage(ctx, 200, registrationPage(request, client, registerErrorMessage(form['register_error']), username), client.redirectUri);
  };

  const refuseCrossSite: Middleware = async function refuseCrossSite(ctx, next) {
    if (!isOwnOrigin(ctx, deps.issuer)) return sendPage(ctx, 403, renderErrorPage('access_denied', CROSS_SITE_REFUSED));
    return next();
  };

  const readLoginForm: Middleware = async function readLoginForm(ctx, next) {
    flowOf(ctx).form = (await readForm(ctx)) ?? {};
    return next();
  };

  const authenticateUser: Middleware = async function authenticateUser(ctx, next) {
    const { client, request } = checked(ctx);
    const user = await deps.authenticate(request.username ?? '', request.password ?? '', { address: ctx.ip, clientId: client.id }).catch((err: unknown) => {
      if (!(err instanceof RetryLaterError)) throw err;
      ctx.set('Retry-After', String(err.retryAfterSeconds));
      const description = err instanceof QueueFullError ? 'Too many logins at once; please retry in a moment.' : err.message;
      throw new PageError('temporarily_unavailable', description, err.status);
    });
    if (!user) {
      const username = request.username !== undefined && isStorableText(request.username) ? request.username : undefined;
      // The same page as the first one, "Create account" included: a wrong password is often a missing account.
      const page = renderLoginPage({ action: FORM_ACTION, params: oauthParams(request), clientId: client.id, username, error: BAD_CREDENTIALS, createAccountHref: createAccountHrefOf(request) });
      return sendPage(ctx, 200, page, client.redirectUri);
    }
    flowOf(ctx).accountId = String(user.id);
    return next();
  };

  const grantCode: Middleware = async function grantCode(ctx) {
    const { client, authorization } = checked(ctx);
    const accountId = flowOf(ctx).accountId;
    if (accountId === undefined) throw new Error('grantCode ran before authenticateUser');
    const code = await mintCode(deps.provider, deps.db, { client, accountId, authorization, ttl: deps.authCodeTtl });
    redirectBack(ctx, client.redirectUri, { code, state: authorization.state, iss: deps.issuer });
  };

  const router = new Router();
  router.all(ROUTES.authorization, dispatchByMethod([], {
    GET: [answerFlowErrors, parseQuery, checkClientStep, checkAuthorizationStep, showLoginForm],
    POST: [refuseCrossSite, readLoginForm, answerFlowErrors, parseForm, checkClientStep, checkAuthorizationStep, showRegistrationFormAgain, authenticateUser, grantCode],
  }));
  return router;
}
