/**
 * `auth tokens revoke --user U | --client C`: signs a user (or a client's every user) out everywhere, as
 * Keycloak's "sign out all sessions": every token, code and grant deleted in one transaction, the resource
 * servers told. Exactly one of `--user` and `--client`.
 */
import { Command, Option } from 'clipanion';
import { describeRevoked, revokeClientTokens, revokeUserTokens } from '../../users/user-admin.ts';
import { CliError } from '../cli-error.ts';
import { jsonOption, runAction } from '../run-action.ts';
import { writeToDatabase } from '../with-database.ts';

export class TokensRevokeCommand extends Command {
  static override paths = [['tokens', 'revoke']];

  static override usage = Command.Usage({
    category: 'Administration',
    description: "Revoke every grant of a user or of a client, on every replica",
    details: `
      Deletes every access token, refresh token, code and grant of the user (\`--user\`) or issued to the client (\`--client\`; the client stays registered), in one transaction, and tells the resource servers (PostgreSQL NOTIFY) so the tokens are refused everywhere at once. Records \`token.revoked\`.

      With \`--json\`, prints \`{ username | clientId, revoked: { accessTokens, refreshTokens, authorizationCodes } }\`.
    `,
    examples: [
      ['Sign a user out everywhere', '$0 tokens revoke --user bob'],
      ["Revoke a client's tokens", '$0 tokens revoke --client web'],
    ],
  });

  user = Option.String('--user,-u', { description: 'Revoke every grant of this user' });
  client = Option.String('--client,-c', { description: 'Revoke every grant issued to this client' });
  json = jsonOption();

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      if ((this.user === undefined) === (this.client === undefined)) throw new CliError('Give exactly one of --user or --client.');
      if (this.user !== undefined) {
        const username = this.user;
        const { value: revoked, where } = await writeToDatabase((db) => revokeUserTokens(db, username));
        return { text: `Every grant of user '${username}' revoked (${describeRevoked(revoked)}) in ${where}.\n`, json: { username, revoked } };
      }
      const clientId = this.client!;
      const { value: revoked, where } = await writeToDatabase((db) => revokeClientTokens(db, clientId));
      return { text: `Every grant of client '${clientId}' revoked (${describeRevoked(revoked)}) in ${where}.\n`, json: { clientId, revoked } };
    });
  }
}
