/**
 * `auth keys`: generates the authorization server's keys file (AUTH_KEYS_FILE: one RS256 signing key, two cookie
 * keys) for production, where every replica must share one file. Needs no database; never replaces a file
 * (mode 0600), since what its keys signed depends on it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'clipanion';
import { generateKeys } from '../../config/keys.ts';
import { CliError } from '../cli-error.ts';
import { jsonOption, runAction } from '../run-action.ts';

export class KeysCommand extends Command {
  static override paths = [['keys']];

  static override usage = Command.Usage({
    description: "Generate the authorization server's signing and cookie keys file",
    details: `
      Prints a new keys file (\`{ "jwks": { "keys": [RS256 private JWK] }, "cookieKeys": [2 random keys] }\`) on stdout, or with \`--out FILE\` writes it there with mode 0600. An existing file is never replaced: tokens, ID tokens and sessions signed with its keys depend on it.

      Give every authorization server replica the same file (AUTH_KEYS_FILE), e.g. as a Kubernetes Secret.
    `,
    examples: [
      ['Write a keys file', '$0 keys --out auth-keys.json'],
      ['Create the Kubernetes Secret', 'kubectl create secret generic heroes-auth --from-file=auth-keys.json=<($0 keys) ...'],
    ],
  });

  out = Option.String('--out,-o', { description: 'Write the file here (mode 0600; never replaces one)' });
  json = jsonOption();

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const text = `${JSON.stringify(generateKeys(), null, 2)}\n`;
      if (this.out === undefined) return { text, json: JSON.parse(text) as unknown };
      const file = path.resolve(this.out);
      try {
        fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'EEXIST') throw new CliError(`${file} exists; keys are never replaced (what they signed depends on them): choose another --out or remove it first.`);
        throw new CliError(`cannot write ${file}: ${code ?? (err as Error).message}`);
      }
      return { text: `Keys written to ${file} (mode 0600): set AUTH_KEYS_FILE to it on every authorization server.\n`, json: { file } };
    });
  }
}
