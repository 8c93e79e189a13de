/**
 * `auth list-clients`: the registered clients as a table or a JSON array (each as `get-client --json` shows it),
 * never a secret.
 */
import { Command } from 'clipanion';
import { listClients } from '../../clients/index.ts';
import { clientJson } from '../client-json.ts';
import { formatClientTable } from '../format-client-table.ts';
import { jsonOption, runAction } from '../run-action.ts';
import { withDatabase } from '../with-database.ts';

export class ListClientsCommand extends Command {
  static override paths = [['list-clients']];

  static override usage = Command.Usage({
    description: 'List the registered OAuth 2.0 clients',
    details: `
      Prints one row per client: ID, type (public or confidential), redirect URIs and allowed scopes. Secrets and their hashes are never shown.

      With \`--json\`, prints a JSON array of clients as \`auth get-client --json\` shows them instead.
    `,
    examples: [
      ['List clients as a table', '$0 list-clients'],
      ['List clients as JSON', '$0 list-clients --json'],
    ],
  });

  json = jsonOption();

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const clients = await withDatabase((db) => listClients(db));
      return { text: formatClientTable(clients), json: clients.map(clientJson) };
    });
  }
}
