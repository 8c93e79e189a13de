/**
 * One setting of the `auth` command line, parsed by its entry in
 * CLI_SETTINGS (config/settings.ts) when a command needs it: a command that
 * never touches the database is not refused for a bad DATABASE_URL.
 */
import { readSettings, type Env, type SettingValues } from '@heroes/platform/settings';
import { CLI_SETTINGS } from '../config/settings.ts';
import { CliError } from './cli-error.ts';

type CliSettings = SettingValues<typeof CLI_SETTINGS>;

/** The value of `key`, or a CliError naming the variable and what it must be. */
export function cliSetting<K extends keyof CliSettings>(key: K, env: Env = process.env): CliSettings[K] {
  const { values, problems } = readSettings({ [key]: CLI_SETTINGS[key] }, env);
  if (problems.length > 0) throw new CliError(problems.join('; '));
  return values[key] as CliSettings[K];
}
