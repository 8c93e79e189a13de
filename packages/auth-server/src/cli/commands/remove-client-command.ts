/**
 * `auth remove-client`: deletes a client with its tokens and codes, in one transaction, and tells the resource
 * servers. A built-in client only with `--force`; an unknown ID is one line and exit 1.
 */
import { Command } from 'clipanion';
import { removeClient } from '../../clients/index.ts';
import { clientJson } from '../client-json.ts';
import { clientIdOption, jsonOption } from '../run-action.ts';
import { writeToDatabase } from '../with-database.ts';
import { forceOption } from '../built-in-guard.ts';
import { changeClient } from './change-client.ts';

export class RemoveClientCommand extends Command {
  static override paths = [['remove-client']];

  static override usage = Command.Usage({
    description: 'Remove an OAuth 2.0 client and revoke its tokens',
    details: `
      Deletes the client together with its access tokens, refresh tokens and authorization codes (one transaction), and tells the resource servers (PostgreSQL NOTIFY on heroes_tokens_revoked) so they stop accepting its tokens at once.

      With \`--json\`, prints \`{ client, deleted: { accessTokens, refreshTokens, authorizationCodes } }\`.

      Fails with exit code 1 when the ID is unknown ("Client ID 'x' does not exist.").
    `,
    examples: [['Remove a client', '$0 remove-client --id web']],
  });

  id = clientIdOption();
  force = forceOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    return changeClient(this, 'remove', async (id) => {
      const { value: { client, deleted }, where } = await writeToDatabase((db) => removeClient(db, id));
      return {
        text: `Client '${id}' removed (with ${deleted.accessTokens} access token(s), ${deleted.refreshTokens} refresh token(s), ${deleted.authorizationCodes} authorization code(s)) from ${where}.\n`,
        json: { client: clientJson(client), deleted },
      };
    });
  }
}
