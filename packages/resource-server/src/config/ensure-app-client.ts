/**
 * The Tour of Heroes web app's OAuth client (docs/web-app.md): a public
 * client (no secret, PKCE) whose redirect URI is the app's callback page at
 * the public base URL. Created on the first start; on later starts its
 * redirect URI and scopes are set again, so a changed PUBLIC_BASE_URL
 * takes effect. Its pages call the token endpoint from that same origin,
 * the default allowed origin (docs/oauth.md, "Browser origins").
 */
import type { PrismaClient } from '@heroes/db';

export const APP_CLIENT_ID = 'tour-of-heroes';

export function appRedirectUri(publicBaseUrl: string): string {
  return `${publicBaseUrl.replace(/\/+$/, '')}/app/callback`;
}

/** Usage: `await ensureAppClient(db, { publicBaseUrl, scopes: ['heroes:read', 'heroes:write'] })` */
export async function ensureAppClient(db: PrismaClient, options: { publicBaseUrl: string; scopes: string[] }): Promise<void> {
  const data = { redirectUris: [appRedirectUri(options.publicBaseUrl)], allowedScopes: options.scopes, hashedSecret: null };
  await db.oAuthClient.upsert({ where: { id: APP_CLIENT_ID }, create: { id: APP_CLIENT_ID, ...data }, update: data });
}
