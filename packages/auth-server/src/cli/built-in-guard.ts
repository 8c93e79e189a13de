/**
 * The built-in clients (tour-of-heroes, the resource server's own) are the service's: removing or changing them
 * breaks /app, /docs or every hero request, so commands refuse them without `--force` and say why.
 */
import { Option } from 'clipanion';
import { builtInClientRole } from '@heroes/oauth-scopes';
import { CliError } from './cli-error.ts';
import { cliSetting } from './cli-settings.ts';

/** The `--force` option of remove-client, set-scopes, set-redirect-uris and rotate-secret. */
export function forceOption() {
  return Option.Boolean('--force', false, { description: 'Also change a built-in client (tour-of-heroes, resource-server)' });
}

/** Throws unless `id` is an ordinary client or `force` is set. `action`: "remove", "change". */
export function refuseBuiltInClient(id: string, force: boolean, action: 'remove' | 'change'): void {
  if (force) return;
  const role = builtInClientRole(id, cliSetting('resourceServerClientId'));
  if (role === undefined) return;
  throw new CliError(`Client '${id}' is built in: ${role}. Add --force to ${action} it anyway.`, { code: 'built_in_client' });
}
