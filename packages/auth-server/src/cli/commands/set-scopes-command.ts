import { SCOPE_MODEL_HELP } from '../scope-model-help.ts';
import { Command, Option } from 'clipanion';
import { parseScopes, setScopes } from '../../clients/index.ts';
import { clientIdOption, required, runAction, updateClient } from '../run-action.ts';

/** `auth set-scopes`: replaces a client's allowed scopes. */
export class SetScopesCommand extends Command {
  static override paths = [['set-scopes']];

  static override usage = Command.Usage({
    description: "Replace an OAuth 2.0 client's allowed scopes",
    details: `
      Replaces the client's allowed scopes with the given space-separated list (RFC 6749 section 3.3 scope tokens; repeated spaces and scopes are collapsed). An empty string clears them: the client is then allowed exactly the hero scopes (heroes:read heroes:write). Tokens already issued keep their scope until they expire; the client's next refresh gives no more than the new list.

      ${SCOPE_MODEL_HELP}

      Fails with exit code 1 when the ID is unknown or a scope is malformed.
    `,
    examples: [
      ['Allow two scopes', '$0 set-scopes --id web --allowed-scopes "heroes heroes:write"'],
      ['Clear the allowed scopes', '$0 set-scopes --id web --allowed-scopes ""'],
    ],
  });

  id = clientIdOption();
  allowedScopes = Option.String('--allowed-scopes,--scopes', { description: 'Space-separated scopes (required; "" clears)' });

  override async execute(): Promise<number> {
    return runAction(this.context, async () => {
      const id = required(this.id, 'id');
      const scopes = parseScopes(required(this.allowedScopes, 'allowed-scopes'));
      await updateClient(this.context, id, (db) => setScopes(db, id, scopes));
    });
  }
}
