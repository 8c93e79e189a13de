/**
 * The OAuth clients the service itself depends on, created by the resource
 * server when missing (docs/oauth.md, "Built-in clients"). The `auth` command
 * line refuses to remove or change them without `--force`, saying why.
 */

/** The public client of the Tour of Heroes app (/app) and of the /docs "Authorize" dialog. */
export const APP_CLIENT_ID = 'tour-of-heroes';

/** The resource server's own confidential client (RESOURCE_SERVER_CLIENT_ID's default). */
export const DEFAULT_RESOURCE_SERVER_CLIENT_ID = 'resource-server';

/**
 * Why client `id` must not be removed or changed casually, or undefined for
 * an ordinary client. `resourceServerClientId` is RESOURCE_SERVER_CLIENT_ID.
 */
export function builtInClientRole(id: string, resourceServerClientId: string = DEFAULT_RESOURCE_SERVER_CLIENT_ID): string | undefined {
  if (id === resourceServerClientId) {
    return 'the resource server authenticates with it to introspect tokens: without it (or with another secret) every hero request answers 503 until the resource server restarts';
  }
  if (id === APP_CLIENT_ID) return 'the web app (/app) and the /docs "Authorize" dialog sign users in with it';
  return undefined;
}
