import { Command, Option } from 'clipanion';
import { listClients } from '../../clients/index.ts';
import { formatClientTable } from '../format-client-table.ts';
import { runAction } from '../run-action.ts';
import { withDatabase } from '../with-database.ts';

/** `auth list-clients`: shows the registered clients (never secrets). */
export class ListClientsCommand extends Command {
  static override paths = [['list-clients']];

  static override usage = Command.Usage({
    description: 'List the registered OAuth 2.0 clients',
    details: `
      Prints one row per client: ID, type (public or confidential), redirect URI and allowed scopes. Secrets and their hashes are never shown.

      With \`--json\`, prints a JSON array of \`{ id, type, redirectUri, allowedScopes, createdAt, updatedAt }\` instead.
    `,
    examples: [
      ['List clients as a table', '$0 list-clients'],
      ['List clients as JSON', '$0 list-clients --json'],
    ],
  });

  json = Option.Boolean('--json', false, { description: 'Print JSON instead of a table' });

  override async execute(): Promise<number> {
    return runAction(this.context, async () => {
      const clients = await withDatabase((db) => listClients(db));
      if (this.json) {
        const rows = clients.map((c) => ({
          id: c.id,
          type: c.isPublic ? 'public' : 'confidential',
          redirectUri: c.redirectUri,
          allowedScopes: c.allowedScopes,
          createdAt: c.createdAt,
          updatedAt: c.updatedAt,
        }));
        this.context.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
      } else {
        this.context.stdout.write(formatClientTable(clients));
      }
    });
  }
}
