/**
 * `auth get-client <id>`: shows one client as details or JSON, never its secret (only that it has one).
 * An unknown ID is one line and exit 1.
 */
import { Command, Option } from 'clipanion';
import { getClient } from '../../clients/index.ts';
import { CliError } from '../cli-error.ts';
import { clientJson } from '../client-json.ts';
import { formatClientDetails } from '../format-client-details.ts';
import { clientIdOption, jsonOption, runAction } from '../run-action.ts';
import { withDatabase } from '../with-database.ts';

export class GetClientCommand extends Command {
  static override paths = [['get-client']];

  static override usage = Command.Usage({
    description: 'Show one OAuth 2.0 client',
    details: `
      Prints the client's ID, type (public or confidential), redirect URIs, allowed scopes and allowed web origins, each with what applies when none is registered. Its secret and the secret's hash are never shown.

      The ID is given as the argument or with \`--id\`. With \`--json\`, prints one JSON object: \`{ id, type, redirectUris, allowedScopes, effectiveScopes, allowedOrigins, effectiveOrigins, createdAt, updatedAt }\`.

      Fails with exit code 1 when the ID is unknown ("Client ID 'x' does not exist.").
    `,
    examples: [
      ['Show a client', '$0 get-client web'],
      ['Show it as JSON', '$0 get-client --id web --json'],
    ],
  });

  idArgument = Option.String({ required: false, name: 'id' });
  id = clientIdOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      if (this.idArgument !== undefined && this.id !== undefined && this.idArgument !== this.id) {
        throw new CliError('Give the client ID once: as the argument or with --id.');
      }
      const id = this.idArgument ?? this.id;
      if (id === undefined) throw new CliError('Client ID required: auth get-client <id>.');
      const client = await withDatabase((db) => getClient(db, id));
      return { text: formatClientDetails(client), json: clientJson(client) };
    });
  }
}
