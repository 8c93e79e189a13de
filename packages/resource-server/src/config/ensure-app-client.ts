/**
 * The built-in public client of the web app and /docs (docs/oauth.md, "Built-in clients"): no secret, PKCE,
 * redirect URIs at the public base URL. Created when missing with the hero scopes; an existing row is the operator's
 * and only gains a redirect URI the current PUBLIC_BASE_URL needs. Each change writes its audit event in the same
 * transaction and one log line; a start that changes nothing writes nothing.
 */
import { addRedirectUris, auditLogRecord, insertAuditEvent, insertPublicClient, type AuditEvent } from '@heroes/db/pg';
import { APP_CLIENT_ID } from '@heroes/oauth-scopes';
import type { Logger } from 'pino';
import type { Database } from '../data/create-pool.ts';

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
    if (await insertPublicClient({ query }, { id: APP_CLIENT_ID, redirectUris: needed, scopes: options.scopes })) {
      return { result: { result: 'created' }, event: await audited({ type: 'client.added', clientId: APP_CLIENT_ID, reason: 'built-in client (resource server start)' }) };
    }
    const added = await addRedirectUris({ query }, APP_CLIENT_ID, needed);
    if (added.length === 0) return { result: { result: 'unchanged' } };
    const reason = `redirect URIs of PUBLIC_BASE_URL added (resource server start): ${added.join(' ')}`;
    return { result: { result: 'added-redirect-uris', added }, event: await audited({ type: 'client.changed', clientId: APP_CLIENT_ID, reason }) };
  });
  if (event) options.logger?.info({ audit: auditLogRecord(event) }, 'audit event');
  return result;
}
