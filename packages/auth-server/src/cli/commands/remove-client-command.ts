import { Command, Option } from 'clipanion';
import { removeClient } from '../../clients/index.ts';
import { clientIdOption, required, runAction } from '../run-action.ts';
import { writeToDatabase } from '../with-database.ts';

/** `auth remove-client`: deletes a client with its tokens and codes. */
export class RemoveClientCommand extends Command {
  static override paths = [['remove-client']];

  static override usage = Command.Usage({
    description: 'Remove an OAuth 2.0 client and revoke its tokens',
    details: `
      Deletes the client together with its access tokens, refresh tokens and authorization codes (one transaction), and tells the resource servers (PostgreSQL NOTIFY on heroes_tokens_revoked) so they stop accepting its tokens at once.

      Fails with exit code 1 when the ID is unknown ("Client ID 'x' does not exist.").
    `,
    examples: [['Remove a client', '$0 remove-client --id web']],
  });

  id = clientIdOption();

  override async execute(): Promise<number> {
    return runAction(this.context, async () => {
      const id = required(this.id, 'id');
      const { value: { deleted }, where } = await writeToDatabase((db) => removeClient(db, id));
      this.context.stdout.write(
        `Client '${id}' removed (with ${deleted.accessTokens} access token(s), ${deleted.refreshTokens} refresh token(s), ${deleted.authorizationCodes} authorization code(s)) from ${where}.\n`,
      );
    });
  }
}
