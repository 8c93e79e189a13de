/**
 * Client authentication as Aqueduct clients send it, before oidc-provider
 * sees the request (token, revocation and introspection endpoints).
 *
 * Rules enforced here:
 * - `Authorization: Basic base64(id:)` (empty secret, colon kept: a public client, docs/oauth.md)
 *   is a public client: the header is removed and `client_id=id` is put in
 *   the form handed to the library (read-provider-form.ts runs first),
 *   which the library understands (it rejects an empty Basic secret with
 *   400). A client that has a secret still fails there with invalid_client
 *   (auth method mismatch);
 * - a malformed Authorization header (not Basic, bad base64, no colon, bad
 *   escapes) → 401 invalid_client with WWW-Authenticate, never a 500;
 * - a well-formed header whose decoded id or secret has characters outside
 *   VSCHAR (%x20-7E, RFC 6749 Appendix A; the CLI registers nothing else)
 *   → 401 invalid_client "client authentication failed", worded as the
 *   library words a wrong secret (test/token/token-errors.test.ts compares
 *   both; the library would answer 400 invalid_request), with no database
 *   read and no slow hash;
 * - whenever the request came with an Authorization header, a 401 answer
 *   carries `WWW-Authenticate: Basic` (RFC 6749 section 5.2);
 * - no client authentication at all (no Authorization header, a form
 *   without `client_id`) refused by the library → 401 invalid_client
 *   (RFC 6749 5.2) instead of its 400 invalid_request, decided on the
 *   request's shape, never on the library's wording; the library's
 *   headers (CORS) are kept.
 */
import type { Context, Middleware, Next } from 'koa';
import { isVschar } from '../clients/vschar.ts';
import { InvalidClientError, OAuthError } from './oauth-error.ts';
import { providerForm } from '../provider/library-seams.ts';
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
  const form = providerForm(ctx.req);
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
  const form = providerForm(ctx.req);
  if (!form || (form['client_id'] !== undefined && form['client_id'] !== '')) return;
  ctx.status = 401;
  ctx.body = { error: 'invalid_client', error_description: NO_CLIENT_AUTHENTICATION };
}
