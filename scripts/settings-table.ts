/**
 * The configuration table of docs/configuration.md, generated from the settings tables of every process and
 * command; each variable is declared once (SHARED_SETTINGS, or the table that owns it) and is one row naming every
 * reader.
 * Usage: node --import tsx scripts/settings-table.ts   (prints the table)
 */
import { pathToFileURL } from 'node:url';
import { CLI_SETTINGS, SETTINGS as AUTH_SETTINGS } from '@heroes/auth-server/settings';
import { DATABASE_COMMAND_SETTINGS } from '@heroes/embedded-postgres/settings';
import { settingsMarkdown, type SettingsTable } from '@heroes/platform';
import { SETTINGS as RESOURCE_SETTINGS } from '@heroes/resource-server';
import { CLUSTER_SETTINGS } from './cluster/settings.ts';
import { START_SETTINGS } from './start/settings.ts';

/** Each process's table, under the name the "Used by" column gives it. */
export const SOURCES: [string, SettingsTable][] = [
  ['npm start', START_SETTINGS],
  ['npm run migrate', DATABASE_COMMAND_SETTINGS],
  ['authorization server', AUTH_SETTINGS],
  ['resource server', RESOURCE_SETTINGS],
  ['npm run cluster', CLUSTER_SETTINGS],
  ['auth CLI', CLI_SETTINGS],
];

export function configurationTable(): string {
  const rows = new Map<string, { row: string; users: string[] }>();
  for (const [user, table] of SOURCES) {
    for (const [env, row] of Object.values(table).map((setting, i) => [setting.env, settingsMarkdown(table)[i]!] as const)) {
      const known = rows.get(env);
      if (known) known.users.push(user);
      else rows.set(env, { row, users: [user] });
    }
  }
  const lines = ['| Variable | Default | Used by | Meaning |', '|---|---|---|---|'];
  for (const { row, users } of rows.values()) {
    // `| NAME | default | doc |` → `| NAME | default | users | doc |`
    const cells = row.split(' | ');
    lines.push([...cells.slice(0, 2), users.join(', '), ...cells.slice(2)].join(' | '));
  }
  return lines.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) console.log(configurationTable());
