/**
 * `auth set-require-dpop`: whether a client's token requests must carry a DPoP proof (RFC 9449); `--off` makes
 * proofs optional again. A built-in client only with `--force`.
 */
import { Command, Option } from 'clipanion';
import { setRequireDpop } from '../../clients/index.ts';
import { clientIdOption, jsonOption, updateClient } from '../run-action.ts';
import { forceOption } from '../built-in-guard.ts';
import { changeClient } from './change-client.ts';

export class SetRequireDpopCommand extends Command {
  static override paths = [['set-require-dpop']];

  static override usage = Command.Usage({
    description: "Require (or stop requiring) DPoP proofs at an OAuth 2.0 client's token requests",
    details: `
      With DPoP required, every token request of the client (password, authorization_code, refresh_token) must carry a \`DPoP\` proof header (RFC 9449): its access tokens are always bound to the client's key, and a request without a proof answers 400 \`invalid_dpop_proof\`. \`--off\` makes proofs optional again (a request without one gets a bearer token). Tokens already issued keep their binding (or lack of one) until they expire.

      Fails with exit code 1 when the ID is unknown.
    `,
    examples: [
      ['Require DPoP', '$0 set-require-dpop --id mobile'],
      ['Make DPoP optional again', '$0 set-require-dpop --id mobile --off'],
    ],
  });

  id = clientIdOption();
  off = Option.Boolean('--off', false, { description: 'Make DPoP proofs optional again' });
  force = forceOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    return changeClient(this, 'change', async (id) => updateClient(id, (db) => setRequireDpop(db, id, !this.off)));
  }
}
