/**
 * What the app knows about its server: everything is on the same origin
 * (the edge), and the edge registers this public client on start
 * (docs/web-app.md).
 */
export const CLIENT_ID = 'tour-of-heroes';
const APP_BASE = '/app/';
/** The redirect URI registered for the client: the callback page of the app on this origin. */
export const redirectUri = (): string => `${location.origin}${APP_BASE}callback`;
export const SCOPE = 'heroes:read heroes:write';
