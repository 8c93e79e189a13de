/**
 * `auth set-grant-types`: replaces the grant types a client may use ("" returns it to its kind's default).
 * A public client never gets refresh_token or client_credentials; a built-in client only with `--force`.
 */
import { Command } from 'clipanion';
import { setGrantTypes } from '../../clients/index.ts';
import { clientIdOption, jsonOption, required, updateClient } from '../run-action.ts';
import { forceOption } from '../built-in-guard.ts';
import { GRANT_TYPES_HELP, grantTypesOption } from '../grant-types-option.ts';
import { changeClient } from './change-client.ts';

export class SetGrantTypesCommand extends Command {
  static override paths = [['set-grant-types']];

  static override usage = Command.Usage({
    description: "Replace the grant types an OAuth 2.0 client may use",
    details: `
      Replaces the client's grant types with the given space-separated list. An empty string returns the client to the default of its kind. Tokens already issued stay valid until they expire or are revoked; the client's next token request is judged by the new list (a refresh by a client no longer allowed refresh_token is refused).

      ${GRANT_TYPES_HELP}

      Fails with exit code 1 when the ID is unknown, a grant type is unknown, or a public client is given refresh_token or client_credentials.
    `,
    examples: [
      ['Allow only the code flow and refreshes', '$0 set-grant-types --id web --grant-types "authorization_code refresh_token"'],
      ['Let a confidential client call the hero API as itself', '$0 set-grant-types --id reports --grant-types client_credentials'],
      ['Return to the default of the client\'s kind', '$0 set-grant-types --id web --grant-types ""'],
    ],
  });

  id = clientIdOption();
  grantTypes = grantTypesOption();
  force = forceOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    return changeClient(this, 'change', async (id) => {
      const grantTypes = required(this.grantTypes, 'grant-types');
      return updateClient(id, (db) => setGrantTypes(db, id, grantTypes));
    });
  }
}
