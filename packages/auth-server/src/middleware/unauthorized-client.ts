/**
 * RFC 6749 section 5.2 `unauthorized_client` at /auth/token: "The
 * authenticated client is not authorized to use this authorization grant
 * type." oidc-provider refuses that case with 400 `invalid_request`; the
 * decision here is ours, made from the client the library authenticated
 * and its registered grant types (documented API: `ctx.oidc.client`,
 * `client.grantTypeAllowed`), not from the library's wording.
 *
 * Rules enforced here (POST /auth/token, after the provider answered):
 * - a 400 `invalid_request` for a client that authenticated (a public
 *   client by its id; a confidential one only once its secret matched,
 *   clients/secret-matches.ts) whose `grant_type`, one value, is not one
 *   of its grant types → 400 `unauthorized_client`, so nothing is revealed
 *   to a caller without the secret;
 * - every other answer is left as it is (an unknown grant type stays the
 *   library's `unsupported_grant_type`).
 * Cases: the resource server's own client (no grant type at all, see
 * adapter/client-metadata.ts), a client without a redirect URI presenting
 * a code (no authorization_code grant), a public client presenting a
 * refresh token.
 */
import type { Middleware } from 'koa';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { secretMatchedFor } from '../clients/secret-matches.ts';
import { providerForm } from '../provider/library-seams.ts';

const GRANT_TYPE_NOT_ALLOWED = 'requested grant type is not allowed for this client';

export const mapUnauthorizedClient: Middleware = async function mapUnauthorizedClient(ctx, next) {
  await next();
  const body = ctx.body as { error?: unknown; error_description?: unknown } | undefined;
  if (ctx.status !== 400 || body?.error !== 'invalid_request') return;
  const client = (ctx as unknown as Partial<KoaContextWithOIDC>).oidc?.client;
  const grantType = providerForm(ctx.req)?.['grant_type'];
  if (!client || typeof grantType !== 'string' || client.grantTypeAllowed(grantType)) return;
  const authenticated = client.clientAuthMethod === 'none' || secretMatchedFor(ctx.req) === client.clientId;
  if (!authenticated) return;
  body.error = 'unauthorized_client';
  body.error_description = GRANT_TYPE_NOT_ALLOWED;
};
