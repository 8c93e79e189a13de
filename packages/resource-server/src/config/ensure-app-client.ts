/**
 * The built-in public client of the web app and /docs (docs/oauth.md, "Built-in clients"): no secret, PKCE,
 * redirect URIs at the public base URL. Created when missing with the hero scopes; an existing row is the operator's
 * and only gains a redirect URI the current PUBLIC_BASE_URL needs. Each change writes its audit event in the same
 * transaction and one log line; a start that changes nothing writes nothing.
 */
import { auditLogRecord, insertAuditEvent, type AuditEvent } from '@heroes/db';
import { APP_CLIENT_ID } from '@heroes/oauth-scopes';
import type { Logger } from 'pino';
import { UTC_NOW, type Database } from '../data/create-pool.ts';

export { APP_CLIENT_ID };

export function appRedirectUri(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/app/callback`;
}

/** Where Swagger UI (GET /docs) comes back after the authorization request. */
export function docsRedirectUri(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/docs/oauth2-redirect.html`;
}

export type EnsureAppClientResult = { result: 'created' | 'unchanged' } | { result: 'added-redirect-uris'; added: string[] };

/** Usage: `await ensureAppClient(db, { publicBaseUrl, scopes: ['heroes:read', 'heroes:write'], logger })` */
export async function ensureAppClient(db: Database, options: { publicBaseUrl: string; scopes: string[]; logger?: Logger | undefined }): Promise<EnsureAppClientResult> {
  const needed = [appRedirectUri(options.publicBaseUrl), docsRedirectUri(options.publicBaseUrl)];
  const { result, event } = await db.transaction(async (query): Promise<{ result: EnsureAppClientResult; event?: AuditEvent }> => {
    const audited = async (event: AuditEvent) => {
      await insertAuditEvent({ query }, event);
      return event;
    };
    const inserted = await query({
      text: `INSERT INTO oauth_clients (id, hashed_secret, redirect_uris, allowed_scopes, created_at, updated_at)
        VALUES ($1, NULL, $2, $3, ${UTC_NOW}, ${UTC_NOW}) ON CONFLICT (id) DO NOTHING`,
      values: [APP_CLIENT_ID, needed, options.scopes],
    });
    if (inserted.rowCount === 1) {
      return { result: { result: 'created' }, event: await audited({ type: 'client.added', clientId: APP_CLIENT_ID, reason: 'built-in client (resource server start)' }) };
    }
    // Appends in one statement, so two replicas starting together add each URI once.
    const { rows } = await query<{ added: string[] }>({
      text: `WITH current AS (SELECT redirect_uris FROM oauth_clients WHERE id = $1 FOR UPDATE),
          missing AS (SELECT array(SELECT u FROM unnest($2::text[]) AS u, current WHERE NOT (u = ANY (current.redirect_uris))) AS uris)
        UPDATE oauth_clients SET redirect_uris = redirect_uris || missing.uris, updated_at = ${UTC_NOW}
        FROM missing WHERE id = $1 AND cardinality(missing.uris) > 0
        RETURNING missing.uris AS added`,
      values: [APP_CLIENT_ID, needed],
    });
    if (!rows[0]) return { result: { result: 'unchanged' } };
    const reason = `redirect URIs of PUBLIC_BASE_URL added (resource server start): ${rows[0].added.join(' ')}`;
    return { result: { result: 'added-redirect-uris', added: rows[0].added }, event: await audited({ type: 'client.changed', clientId: APP_CLIENT_ID, reason }) };
  });
  if (event) options.logger?.info({ audit: auditLogRecord(event) }, 'audit event');
  return result;
}
