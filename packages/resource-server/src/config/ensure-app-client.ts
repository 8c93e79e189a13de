/**
 * The Tour of Heroes web app's OAuth client (docs/web-app.md): a public
 * client (no secret, PKCE) whose redirect URI is the app's callback page at
 * the public base URL. Created on the first start; on later starts its
 * redirect URI and scopes are set again, so a changed PUBLIC_BASE_URL
 * takes effect. Its pages call the token endpoint from that same origin,
 * the default allowed origin (docs/oauth.md, "Browser origins").
 */
import { UTC_NOW, type Database } from '../data/create-pool.ts';

export const APP_CLIENT_ID = 'tour-of-heroes';

export function appRedirectUri(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/app/callback`;
}

/** Usage: `await ensureAppClient(db, { publicBaseUrl, scopes: ['heroes:read', 'heroes:write'] })` */
export async function ensureAppClient(db: Database, options: { publicBaseUrl: string; scopes: string[] }): Promise<void> {
  await db.query({
    text: `INSERT INTO oauth_clients (id, hashed_secret, redirect_uris, allowed_scopes, created_at, updated_at)
      VALUES ($1, NULL, $2, $3, ${UTC_NOW}, ${UTC_NOW})
      ON CONFLICT (id) DO UPDATE SET hashed_secret = NULL, redirect_uris = EXCLUDED.redirect_uris,
        allowed_scopes = EXCLUDED.allowed_scopes, updated_at = EXCLUDED.updated_at`,
    values: [APP_CLIENT_ID, [appRedirectUri(options.publicBaseUrl)], options.scopes],
  });
}
