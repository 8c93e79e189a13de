import { Command, Option } from 'clipanion';
import { setRedirectUri, validateRedirectUri } from '../../clients/index.ts';
import { CliError } from '../cli-error.ts';
import { clientIdOption, required, runAction, updateClient } from '../run-action.ts';

/** `auth set-redirect-uri`: sets or clears a client's redirect URI. */
export class SetRedirectUriCommand extends Command {
  static override paths = [['set-redirect-uri']];

  static override usage = Command.Usage({
    description: "Set or clear an OAuth 2.0 client's redirect URI",
    details: `
      Sets the redirect URI the authorization-code flow sends the client back to. It must be an absolute URI without fragment (RFC 6749 section 3.1.2): http(s) with a host, or a private-use scheme such as com.example.app:/callback. It is stored exactly as given and matched exactly.

      \`--clear\` (or \`--redirect-uri ""\`) removes it; the client then cannot use the authorization-code flow.

      Fails with exit code 1 when the ID is unknown or the URI is invalid.
    `,
    examples: [
      ['Set the redirect URI', '$0 set-redirect-uri --id web --redirect-uri https://app.example.com/callback'],
      ['Clear it', '$0 set-redirect-uri --id web --clear'],
    ],
  });

  redirectUri = Option.String('--redirect-uri,-r', { description: 'The new redirect URI ("" clears it)' });
  id = clientIdOption();
  clear = Option.Boolean('--clear', false, { description: 'Remove the redirect URI' });

  override async execute(): Promise<number> {
    return runAction(this.context, async () => {
      const id = required(this.id, 'id');
      if (this.clear && this.redirectUri !== undefined) {
        throw new CliError('Options --redirect-uri and --clear cannot be used together.');
      }
      if (!this.clear && this.redirectUri === undefined) {
        throw new CliError('Option --redirect-uri required (or --clear to remove it).');
      }
      const uri = this.clear || this.redirectUri === '' ? null : validateRedirectUri(this.redirectUri!);
      await updateClient(this.context, id, (db) => setRedirectUri(db, id, uri));
    });
  }
}
