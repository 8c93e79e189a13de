/**
 * Every place the authorization server reaches into oidc-provider beyond its documented API, in one file (lint
 * refuses `oidc-provider/lib` anywhere else); each seam says what it touches and which rule needs it (the package
 * README lists them). Written against PINNED_VERSION, pinned in package.json; test/library/library-seams.test.ts fails
 * when an update moves any of them, so an upgrade starts here.
 */
import type { IncomingMessage } from 'node:http';
import Provider from 'oidc-provider';
import { RetryLaterError, type FormValue } from '@heroes/http-kit';
import { providerTemporarilyUnavailable } from '../common/temporarily-unavailable.ts';
import { requestState } from '../request-state.ts';

/** The oidc-provider version these seams fit (package.json pins the same). */
export const PINNED_VERSION = '9.13.3';

// ─── Seam 1: the form body, read by http-kit and handed to the library ──
//
// Why: the token, revocation and introspection endpoints follow http-kit's
// body rules (AUTH_MAX_BODY_BYTES and 413, charset and 415, see
// common/read-form.ts) instead of the library's own reader, and our
// steps before the library read and adjust the form it then uses (a public
// client's id from `Basic base64(id:)`, a sub-scope refresh's parent scope).
// (The library's reader, lib/shared/selective_body.js: a hard 56 KiB cap
// answered with 400, no charset check.) When `req.readable` is false (we
// consumed the stream) that reader takes `req.body || ctx.request.body` and, for forms, uses
// `querystring.parse(querystring.stringify(body))`: an object of strings
// (arrays for repeated keys, which the library then refuses as duplicates).
// That branch prints a one-time console warning meant for apps that parse
// bodies by accident; here it is deliberate, so silenceParsedBodyWarning()
// spends it once, silently, when the server is built.

/** The library's body reader (not exported by its package entry). */
export const SELECTIVE_BODY_MODULE = 'oidc-provider/lib/shared/selective_body.js';
/** The start of its one-time warning (test/body/provider-body.test.ts checks none is printed). */
export const PARSED_BODY_WARNING = 'already parsed request body detected';

/** Hands `form` to the library for this request (its reader's fallback for an upstream parser: `ctx.request.body`). */
export function handFormToProvider(ctx: { req: IncomingMessage; request: object }, form: Record<string, FormValue>): void {
  (ctx.request as { body?: unknown }).body = form;
  // Already false once the stream was read to its end; an empty body may never have been read.
  if (ctx.req.readable) Object.defineProperty(ctx.req, 'readable', { value: false, configurable: true });
}

interface SelectiveBody {
  urlencoded(ctx: object, next: () => Promise<void>): Promise<void>;
}

let silenced = false;

/**
 * Spends the library's one-time "already parsed request body" warning
 * without printing it. The warning is issued synchronously when the
 * branch is first taken, so console.warn is replaced only for that call.
 */
export async function silenceParsedBodyWarning(): Promise<void> {
  if (silenced) return;
  silenced = true;
  const { urlencoded } = (await import(SELECTIVE_BODY_MODULE)) as SelectiveBody;
  const fake = {
    method: 'POST',
    is: (type: string) => type,
    get: () => '',
    req: { readable: false, body: {} },
    request: {},
    oidc: {},
  };
  const warn = console.warn;
  console.warn = () => {};
  let pending: Promise<void>;
  try {
    pending = urlencoded(fake, async () => {});
  } finally {
    console.warn = warn;
  }
  await pending;
}

// ─── Seam 2: client secrets compared against a bcrypt hash ──────────────
//
// Why: the `client_secret` metadata holds the stored bcrypt hash (see
// adapter/client-metadata.ts); the library compares plain values in
// `Client.prototype.compareClientSecret`, which its client authentication
// (lib/shared/client_auth.js) calls for client_secret_basic and _post; the
// library has no documented hook for it. A match is recorded on the
// request's state (`unauthorized_client` is named only to that client).

/** (client id, stored hash, presented secret, the request's context) → whether it matches. */
export type ClientSecretCheck = (clientId: string, storedSecret: string | undefined, presented: string, ctx: { state: unknown; req: IncomingMessage } | undefined) => Promise<boolean>;

export function replaceClientSecretCheck(provider: Provider, check: ClientSecretCheck): void {
  const proto = provider.Client.prototype as unknown as {
    compareClientSecret(this: { clientId: string; clientSecret?: string }, actual: string): Promise<boolean>;
  };
  proto.compareClientSecret = async function compareClientSecret(actual) {
    const ctx = Provider.ctx;
    try {
      const matches = await check(this.clientId, this.clientSecret, actual, ctx);
      if (matches && ctx) requestState(ctx).secretMatchedClient = this.clientId;
      return matches;
    } catch (err) {
      // Not a verdict on the secret: temporarily_unavailable (the RFC 6749 code) with Retry-After,
      // 429 for a throttled client (RFC 6585), 503 for a full password-hash queue.
      if (!(err instanceof RetryLaterError)) throw err;
      throw providerTemporarilyUnavailable(ctx, err);
    }
  };
}

// ─── Seam 4: signing keys replaced while the provider runs ──────────────
//
// Why: `auth keys rotate` puts a new signing key in AUTH_KEYS_FILE and every
// replica must sign with it, and publish it at /auth/jwks, without a restart
// (library/signing-keys.ts). The library reads `jwks` once, in its
// constructor, through lib/helpers/initialize_keystore.js, which builds the
// keystore it signs with and the JWKS it publishes, both kept in its
// internal store (lib/helpers/weak_cache.js); running that initializer
// again with the new set replaces both, with the library's own key checks.

/** The library's keystore initializer (not exported by its package entry). */
export const KEYSTORE_MODULE = 'oidc-provider/lib/helpers/initialize_keystore.js';

type InitializeKeystore = (this: Provider, jwks: { keys: unknown[] }) => void;

/** Signs with the first key of `jwks` from now on, and publishes every key of it. */
export async function replaceSigningKeys(provider: Provider, jwks: { keys: unknown[] }): Promise<void> {
  const { default: initialize } = (await import(KEYSTORE_MODULE)) as { default: InitializeKeystore };
  initialize.call(provider, structuredClone(jwks));
}

// ─── Seam 5: DPoP proofs at the password grant ──────────────────────────
//
// Why: the password grant is ours (library/password-grant.ts), and its
// tokens are bound like the library's own grants bind theirs (RFC 9449
// section 5): the same proof checks (signature, typ, alg, htm, htu, iat,
// server nonce), the same replay check and the same `jkt` binding. The
// library hands its grants these helpers (lib/helpers/grants.js) but not a
// registered grant; they are imported from where it defines them.

/** The library's proof check (not exported by its package entry). */
export const VALIDATE_DPOP_MODULE = 'oidc-provider/lib/helpers/validate_dpop.js';

/** A verified proof: its key's RFC 7638 thumbprint, `jti` and `iat`. */
export interface DpopProofResult {
  thumbprint: string;
  jti: string;
  iat: number;
}

interface ValidateDpopModule {
  default(provider: Provider, ctx: object, accessToken?: string): Promise<DpopProofResult | undefined>;
  checkDpopReplay(provider: Provider, ctx: object, dPoP: DpopProofResult | undefined, clientId: string, ErrorClass?: unknown): Promise<void>;
}

let validateDpopModule: ValidateDpopModule | undefined;

/** The request's `DPoP` proof checked as the library's grants check it; undefined without one. Throws invalid_dpop_proof / use_dpop_nonce. */
export async function validateDpopProof(provider: Provider, ctx: object): Promise<DpopProofResult | undefined> {
  validateDpopModule ??= (await import(VALIDATE_DPOP_MODULE)) as ValidateDpopModule;
  return validateDpopModule.default(provider, ctx);
}

/** The library's replay check of a proof at the token endpoint (ReplayDetection, seam 6); throws invalid_grant for a replay. */
export async function checkDpopProofReplay(provider: Provider, ctx: object, proof: DpopProofResult, clientId: string): Promise<void> {
  validateDpopModule ??= (await import(VALIDATE_DPOP_MODULE)) as ValidateDpopModule;
  await validateDpopModule.checkDpopReplay(provider, ctx, proof, clientId);
}

// ─── Seam 6: the DPoP replay check, atomic and shared ───────────────────
//
// Why: RFC 9449 section 11.1, a proof is accepted once. The library's
// `ReplayDetection.unique` (lib/models/replay_detection.js) reads, then
// writes: two replicas given the same proof at once both accept it. It is
// replaced by one atomic claim in the table the edge uses too
// (@heroes/db's claimProofIds), keyed per client as the library keys it.

/** (client id, proof jti, expiry in epoch seconds) → true the first time. */
export type ClaimProofId = (clientId: string, jti: string, expiresAtSeconds: number) => Promise<boolean>;

export function replaceDpopReplayCheck(provider: Provider, claim: ClaimProofId): void {
  const model = provider.ReplayDetection as unknown as { unique(iss: string, jti: string, exp: number): Promise<boolean> };
  model.unique = (iss, jti, exp) => claim(iss, jti, exp);
}
