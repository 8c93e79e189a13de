/**
 * oidc-provider adapter for access tokens, refresh tokens and codes. Row id = sha256(value), never the value; a value
 * no token can have is not found without a query; expired rows never returned. `consume` is atomic and single-use
 * (RFC 9700 section 4.14.2): a race's loser gets invalid_grant and the grant is revoked. Deleting access tokens
 * notifies resource servers; issue, revocation and reuse are audited by the statement that writes the row.
 */
import { consumeTokenRow, deleteTokenRows, findTokenRow, tokenRowGrantId, upsertTokenRow, type PrismaClient, type Queryable, type TokenTableName } from '@heroes/db';
import Provider, { errors, type Adapter, type AdapterPayload } from 'oidc-provider';
import type { RevocationNotifier } from '../notify/revocation-notifier.ts';
import type { AuditTrail } from '../audit/audit-trail.ts';
import { refreshReusedEvent, tokenDestroyedEvent, tokenIssuedEvent } from '../audit/token-audit.ts';
import { hashToken } from './hash-token.ts';
import { revokeGrant } from './revoke-grant.ts';

/** The library's opaque token values are 43 of these (256 bits); codes and refresh tokens too. */
const TOKEN_VALUE = /^[A-Za-z0-9_-]{1,512}$/;

export type TokenModel = 'AccessToken' | 'RefreshToken' | 'AuthorizationCode';

const LABELS: Readonly<Record<TokenModel, string>> = { AccessToken: 'access token', RefreshToken: 'refresh token', AuthorizationCode: 'authorization code' };

const TABLE_NAMES: Readonly<Record<TokenModel, TokenTableName>> = {
  AccessToken: 'access_tokens',
  RefreshToken: 'refresh_tokens',
  AuthorizationCode: 'authorization_codes',
};

export class TokenAdapter implements Adapter {
  readonly #tableName: TokenTableName;
  readonly #notify: RevocationNotifier | undefined;
  readonly #db: PrismaClient;
  readonly #revocations: RevocationNotifier;
  readonly #model: TokenModel;
  readonly #trail: AuditTrail | undefined;

  constructor(db: PrismaClient, model: TokenModel, notify: RevocationNotifier, trail?: AuditTrail) {
    this.#trail = trail;
    this.#tableName = TABLE_NAMES[model];
    this.#db = db;
    this.#revocations = notify;
    this.#model = model;
    // Only access tokens are cached by resource servers.
    this.#notify = model === 'AccessToken' ? notify : undefined;
  }

  async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
    const { jti: _value, consumed, ...stored } = payload;
    await upsertTokenRow(this.#db, this.#tableName, {
      id: hashToken(id),
      clientId: String(payload.clientId),
      userId: toUserId(payload.accountId),
      grantId: payload.grantId ?? null,
      scope: payload.scope || null,
      payload: stored,
      expiresAtMs: Date.now() + (expiresIn ?? 0) * 1000,
      consumedAtMs: consumed ? Date.now() : null,
    }, this.#trail && this.#model === 'AccessToken' ? (pool) => this.#trail!.recordWith(tokenIssuedEvent(payload), pool) : undefined);
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (!TOKEN_VALUE.test(id)) return undefined;
    const row = await findTokenRow(this.#db, this.#tableName, hashToken(id));
    if (!row?.expiresAt || row.expiresAt.getTime() <= Date.now()) return undefined;
    const payload = { ...(row.payload as AdapterPayload), jti: id };
    if (row.consumedAt) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
    return payload;
  }

  async findByUid(): Promise<undefined> {
    return undefined;
  }

  async findByUserCode(): Promise<undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    const tokenHash = hashToken(id);
    if (await consumeTokenRow(this.#db, this.#tableName, tokenHash)) return this.#notify?.({ tokenHash });
    // Another request consumed it first (or it was revoked meanwhile).
    const grantId = await tokenRowGrantId(this.#db, this.#tableName, tokenHash);
    const reused = this.#trail && this.#model === 'RefreshToken' ? refreshReusedEvent(Provider.ctx?.oidc?.entities.RefreshToken?.accountId, Provider.ctx?.oidc?.client?.clientId) : undefined;
    if (grantId) await revokeGrant(this.#db, this.#revocations, grantId, reused && { trail: this.#trail!, event: reused });
    throw new errors.InvalidGrant(`${LABELS[this.#model]} already used`);
  }

  async destroy(id: string): Promise<void> {
    const tokenHash = hashToken(id);
    const event = this.#trail && tokenDestroyedEvent(this.#model);
    const record = event && ((pool: Queryable) => this.#trail!.recordWith(event, pool));
    if ((await deleteTokenRows(this.#db, this.#tableName, { id: tokenHash }, record)) > 0) await this.#notify?.({ tokenHash });
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    if ((await deleteTokenRows(this.#db, this.#tableName, { grantId })) > 0) await this.#notify?.({ grantId });
  }
}

function toUserId(accountId: string | undefined): number | null {
  if (accountId === undefined || !/^\d{1,10}$/.test(accountId)) return null;
  const id = Number(accountId);
  return id <= 2_147_483_647 ? id : null;
}
