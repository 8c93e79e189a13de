/**
 * `auth keys rotate`: a new signing key in the keys file; the previous ones stay published until what they signed
 * has expired (config/keys.ts). Servers reading the file pick it up by themselves (library/signing-keys.ts); the
 * rotation is recorded in the audit trail when a database is reachable.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Command, Option } from 'clipanion';
import { sqlPool } from '@heroes/db';
import { parseKeys, replaceKeysFile, rotateKeys, SIGNED_LIFETIME_MS } from '../../config/keys.ts';
import { recordKeysRotated } from '../../audit/keys-audit.ts';
import { auditLineLogger } from '../audit-lines.ts';
import { CliError, errorLine } from '../cli-error.ts';
import { cliSetting } from '../cli-settings.ts';
import { jsonOption, runAction } from '../run-action.ts';
import { withDatabase } from '../with-database.ts';

export class KeysRotateCommand extends Command {
  static override paths = [['keys', 'rotate']];

  static override usage = Command.Usage({
    category: 'Administration',
    description: 'Rotate the signing key: a new active key, the previous ones published until what they signed expires',
    details: `
      Adds a new RS256 key to the keys file (AUTH_KEYS_FILE, or \`--file\`) as the signing key, marks the previous one retired (it stays in the JWKS for ${SIGNED_LIFETIME_MS / 60_000} minutes, the longest lifetime of what it signed: ID tokens), and drops keys retired longer ago. The file is replaced atomically (mode 0600); cookie keys are kept.

      Every authorization server reading the file checks it every second and signs with the new key from then on, without a restart; the first one records \`keys.rotated\` (so does this command when it reaches the database). For a Kubernetes Secret, rotate a copy and apply it (docs/operations.md, Administration).

      With \`--json\`, prints \`{ file, kid, dropped, recorded }\`.
    `,
    examples: [
      ['Rotate the key of the local service', '$0 keys rotate'],
      ['Rotate a copy of the Kubernetes Secret', '$0 keys rotate --file auth-keys.json'],
    ],
  });

  file = Option.String('--file,-f', { description: 'The keys file (default: AUTH_KEYS_FILE)' });
  json = jsonOption();

  override async execute(): Promise<number> {
    return runAction(this.context, this.json, async () => {
      const file = path.resolve(this.file ?? cliSetting('keysFile'));
      let text: string;
      try {
        text = fs.readFileSync(file, 'utf8');
      } catch (err) {
        throw new CliError(`cannot read the keys file ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message} (start the service once, or write one with \`auth keys --out\`)`);
      }
      let rotation;
      try {
        rotation = rotateKeys(parseKeys(text, file));
        replaceKeysFile(file, rotation.keys);
      } catch (err) {
        throw new CliError(err instanceof Error && !(err as NodeJS.ErrnoException).code ? err.message : `cannot write ${file}: ${(err as NodeJS.ErrnoException).code}`);
      }
      const { kid, dropped } = rotation;
      const recorded = await withDatabase((db) => recordKeysRotated(sqlPool(db), kid, auditLineLogger()), () => {}).then(() => true, (err: unknown) => errorLine(err));
      const note = recorded === true ? '' : ` (keys.rotated not recorded here: ${recorded}; the first server to load the key records it)`;
      return {
        text: `New signing key ${kid} in ${file}${dropped.length > 0 ? `; expired key(s) dropped: ${dropped.join(', ')}` : ''}. Servers reading this file sign with it within a second.${note}\n`,
        json: { file, kid, dropped, recorded: recorded === true },
      };
    });
  }
}
