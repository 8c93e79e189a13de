/**
 * `auth rotate-secret`: gives a client a new generated secret, shown once and stored as a bcrypt hash. A public
 * client is refused unless `--make-confidential`; a built-in one unless `--force`.
 */
import { Command, Option } from 'clipanion';
import { rotateSecret } from '../../clients/index.ts';
import { secretLine } from '../describe-client.ts';
import { clientJson } from '../client-json.ts';
import { clientIdOption, jsonOption } from '../run-action.ts';
import { writeToDatabase } from '../with-database.ts';
import { forceOption } from '../built-in-guard.ts';
import { changeClient } from './change-client.ts';

export class RotateSecretCommand extends Command {
  static override paths = [['rotate-secret']];

  static override usage = Command.Usage({
    description: "Replace an OAuth 2.0 client's secret with a new generated one",
    details: `
      Generates a new random secret (32 bytes, base64url), stores its bcrypt hash in place of the old one and prints it once. The old secret stops working at once; tokens already issued stay valid (use remove-client to revoke them). Resource servers are notified.

      A public client (no secret) is refused, because giving it a secret changes how it must authenticate; pass \`--make-confidential\` to do exactly that.

      With \`--json\`, prints \`{ client, secret }\`: the only time the new secret is shown.

      Fails with exit code 1 when the ID is unknown.
    `,
    examples: [
      ['Rotate the secret of a confidential client', '$0 rotate-secret --id web'],
      ['Give a public client its first secret', '$0 rotate-secret --id com.hero.app --make-confidential'],
    ],
  });

  id = clientIdOption();
  makeConfidential = Option.Boolean('--make-confidential', false, { description: 'Allow giving a public client a secret' });
  force = forceOption();
  json = jsonOption();

  override async execute(): Promise<number> {
    return changeClient(this, 'change', async (id) => {
      const { value: { client, secret }, where } = await writeToDatabase((db) => rotateSecret(db, id, { makeConfidential: this.makeConfidential }));
      return {
        text: `Secret of client '${client.id}' rotated in ${where}; the old secret no longer works.\n${secretLine(secret)}\n`,
        json: { client: clientJson(client), secret },
      };
    });
  }
}
