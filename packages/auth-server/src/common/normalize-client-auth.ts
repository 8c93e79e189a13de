/**
 * Client authentication as Aqueduct clients send it, before oidc-provider: `Basic base64(id:)` is a public client
 * (`client_id` in the form instead); a malformed header, or credentials outside VSCHAR → 401 invalid_client worded as
 * a wrong secret, without a read or hash; no client authentication at all → 401 (RFC 6749 section 5.2), decided on
 * the request's shape; a 401 to a request with Authorization carries `WWW-Authenticate: Basic`.
 */
import type { Context, Middleware, Next } from 'koa';
import { isVschar } from '../clients/vschar.ts';
import { InvalidClientError, OAuthError } from './oauth-error.ts';
import { requestState } from '../request-state.ts';
import { parseBasic } from './parse-basic.ts';

const NO_CLIENT_AUTHENTICATION = 'no client authentication mechanism provided';
const CLIENT_AUTHENTICATION_FAILED = 'client authentication failed';

export function createClientAuthNormalizer(issuer: string): Middleware {
  const challenge = `Basic realm="${issuer}", error="invalid_client"`;
  return async function normalizeClientAuth(ctx, next) {
    const header = ctx.get('Authorization');
    if (header === '') return withoutHeader(ctx, next);

    const credentials = parseBasic(header);
    if (!credentials) throw new InvalidClientError('invalid Authorization header: expected Basic client credentials', { 'WWW-Authenticate': challenge });
    if (!isVschar(credentials.id) || !isVschar(credentials.secret)) throw new InvalidClientError(CLIENT_AUTHENTICATION_FAILED, { 'WWW-Authenticate': challenge });
    if (credentials.secret === '') toPublicClientForm(ctx, credentials.id);

    await next();
    if (ctx.status === 401 && !ctx.response.get('WWW-Authenticate')) ctx.set('WWW-Authenticate', challenge);
  };
}

/** Moves a public client's id from the Basic header into the form (a form body only). */
function toPublicClientForm(ctx: Context, clientId: string): void {
  const form = requestState(ctx).form;
  if (!form) return;
  const inBody = form['client_id'];
  if (inBody !== undefined && [inBody].flat().some((value) => value !== clientId)) {
    throw new OAuthError(400, 'invalid_request', 'client_id mismatch');
  }
  form['client_id'] = clientId;
  delete ctx.req.headers['authorization'];
}

async function withoutHeader(ctx: Context, next: Next): Promise<void> {
  await next();
  const body = ctx.body as { error?: unknown } | undefined;
  if (ctx.status !== 400 || body?.error !== 'invalid_request') return;
  const form = requestState(ctx).form;
  if (!form || (form['client_id'] !== undefined && form['client_id'] !== '')) return;
  ctx.status = 401;
  ctx.body = { error: 'invalid_client', error_description: NO_CLIENT_AUTHENTICATION };
}
