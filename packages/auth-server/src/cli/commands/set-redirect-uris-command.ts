/**
 * `auth set-redirect-uris` (alias `set-redirect-uri`): replaces or clears a client's redirect URIs, every URI
 * checked before anything changes. A built-in client only with `--force`.
 */
import { Command, Option } from 'clipanion';
import { setRedirectUris, validateRedirectUris } from '../../clients/index.ts';
import { CliError } from '../cli-error.ts';
import { clientIdOption, jsonOption, updateClient } from '../run-action.ts';
import { forceOption } from '../built-in-guard.ts';
import { changeClient } from './change-client.ts';

export class SetRedirectUrisCommand extends Command {
  static override paths = [['set-redirect-uris'], ['set-redirect-uri']];

  static override usage = Command.Usage({
    description: "Replace or clear an OAuth 2.0 client's redirect URIs",
    details: `
      Replaces the redirect URIs the authorization-code flow may send the client back to with the given ones (\`--redirect-uri\`, repeatable, at most 50). Each must be an absolute URI without fragment (RFC 6749 section 3.1.2): http(s) with a host, or a private-use scheme such as com.example.app:/callback. They are stored exactly as given, and an authorization request's redirect_uri must equal one of them character for character; a client with several must name one in every request.

      \`--clear\` (or a single \`--redirect-uri ""\`) removes them all; the client then cannot use the authorization-code flow. \`set-redirect-uri\` is the same command.

      Fails with exit code 1, changing nothing, when the ID is unknown or a URI is invalid.
    `,
    examples: [
      ['Set one redirect URI', '$0 set-redirect-uris --id web --redirect-uri https://app.example.com/callback'],
      ['Set two', '$0 set-redirect-uris --id web --redirect-uri https://app.example.com/callback --redirect-uri http://127.0.0.1:8080/callback'],
      ['Clear them', '$0 set-redirect-uris --id web --clear'],
    ],
  });

  redirectUris = Option.Array('--redirect-uri,-r', { description: 'A redirect URI (repeatable; a single "" clears)' });
  id = clientIdOption();
  clear = Option.Boolean('--clear', false, { description: 'Remove every redirect URI' });
  force = forceOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    return changeClient(this, 'change', async (id) => {
      if (this.clear && this.redirectUris !== undefined) {
        throw new CliError('Options --redirect-uri and --clear cannot be used together.');
      }
      if (!this.clear && this.redirectUris === undefined) {
        throw new CliError('Option --redirect-uri required (or --clear to remove them).');
      }
      const given = this.redirectUris ?? [];
      const uris = given.length === 1 && given[0] === '' ? [] : validateRedirectUris(given);
      return updateClient(id, (db) => setRedirectUris(db, id, uris));
    });
  }
}
