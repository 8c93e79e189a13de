/**
 * `auth set-scopes`: replaces a client's allowed scopes ("" clears them: the hero scopes only). A scope outside the
 * service's is refused unless `--allow-unknown-scope`; a built-in client only with `--force`.
 */
import { SCOPE_MODEL_HELP } from '../scope-model-help.ts';
import { Command, Option } from 'clipanion';
import { parseScopes, setScopes } from '../../clients/index.ts';
import { allowUnknownScopeOption, checkKnownScopes } from '../known-scopes.ts';
import { clientIdOption, jsonOption, required, updateClient } from '../run-action.ts';
import { forceOption } from '../built-in-guard.ts';
import { changeClient } from './change-client.ts';

export class SetScopesCommand extends Command {
  static override paths = [['set-scopes']];

  static override usage = Command.Usage({
    description: "Replace an OAuth 2.0 client's allowed scopes",
    details: `
      Replaces the client's allowed scopes with the given space-separated list (RFC 6749 section 3.3 scope tokens, at most 50, each at most 256 characters; repeated spaces and scopes are collapsed). An empty string clears them: the client is then allowed exactly the hero scopes (heroes:read heroes:write). Tokens already issued keep their scope until they expire; the client's next refresh gives no more than the new list.

      A scope other than openid, heroes, heroes:read, heroes:write and their sub-scopes (such as heroes:read:own) is refused unless \`--allow-unknown-scope\` is given.

      ${SCOPE_MODEL_HELP}

      Fails with exit code 1 when the ID is unknown or a scope is malformed or unknown.
    `,
    examples: [
      ['Allow two scopes', '$0 set-scopes --id web --allowed-scopes "heroes heroes:write"'],
      ['Allow a scope of another service', '$0 set-scopes --id web --allowed-scopes "heroes:read reports" --allow-unknown-scope'],
      ['Clear the allowed scopes', '$0 set-scopes --id web --allowed-scopes ""'],
    ],
  });

  id = clientIdOption();
  allowedScopes = Option.String('--allowed-scopes,--scopes', { description: 'Space-separated scopes (required; "" clears)' });
  allowUnknownScope = allowUnknownScopeOption();
  force = forceOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    return changeClient(this, 'change', async (id) => {
      const scopes = parseScopes(required(this.allowedScopes, 'allowed-scopes'));
      checkKnownScopes(scopes, this.allowUnknownScope);
      return updateClient(id, (db) => setScopes(db, id, scopes));
    });
  }
}
