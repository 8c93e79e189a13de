/**
 * Settings `npm start` reads itself, and the check of every setting of both
 * servers before anything starts: one line per problem, exit 1.
 */
import { SETTINGS as AUTH_SETTINGS } from '@heroes/auth-server/settings';
import { DATABASE_COMMAND_SETTINGS, DATABASE_SETTINGS } from '@heroes/embedded-postgres/settings';
import { defineSettings, isSet, loadSettings, readSettings, SHARED_SETTINGS, type Env, type SettingsTable } from '@heroes/platform/settings';
import { SETTINGS as RESOURCE_SETTINGS } from '@heroes/resource-server/settings';

export const START_SETTINGS = defineSettings({
  ...DATABASE_COMMAND_SETTINGS,
  port: SHARED_SETTINGS.port,
  authPort: SHARED_SETTINGS.authPort,
  // The one entry of AUTH_HOST, with npm start's default: loopback (the entry's defaultDoc states both).
  authHost: { ...AUTH_SETTINGS.host, default: '127.0.0.1' },
});

/** Every problem of the environment, each variable named once; DATABASE_URL may be unset (embedded server). */
export function checkEnvironment(env: Env): string[] {
  const tables: SettingsTable[] = [START_SETTINGS, withoutDatabaseUrl(AUTH_SETTINGS, env), withoutDatabaseUrl(RESOURCE_SETTINGS, env)];
  const seen = new Set<string>();
  const problems: string[] = [];
  for (const table of tables) {
    for (const problem of readSettings(table, env).problems) {
      const variable = problem.split(' ')[0]!;
      if (seen.has(variable)) continue;
      seen.add(variable);
      problems.push(problem);
    }
  }
  return [...problems, ...sharedPorts(env)];
}

/**
 * The parsed values `npm start` acts on (its own table, and the edge's
 * addresses and stop time it hands down), read once checkEnvironment found no
 * problem: the script never re-reads a variable with a copied default.
 */
export function startValues(env: Env) {
  const own = loadSettings(START_SETTINGS, env);
  const { host, authServerUrl, publicBaseUrl, shutdownTimeoutMs } = loadSettings(withoutDatabaseUrl(RESOURCE_SETTINGS, env) as typeof RESOURCE_SETTINGS, env);
  return { ...own, host, authServerUrl, publicBaseUrl, shutdownTimeoutMs };
}

/**
 * Two of the stack's listeners on one port: the second one would fail to
 * listen and crash-loop after the banner. One line per shared port, naming
 * every variable on it (0, any free port, never clashes).
 */
function sharedPorts(env: Env): string[] {
  const { values } = readSettings(START_SETTINGS, env);
  const ports: Array<[string, unknown]> = [['PORT', values.port], ['AUTH_PORT', values.authPort]];
  if (!isSet(DATABASE_SETTINGS.databaseUrl, env)) ports.push(['EMBEDDED_PG_PORT', values.embeddedPgPort]);
  const byPort = new Map<number, string[]>();
  for (const [name, port] of ports) {
    if (typeof port !== 'number' || port === 0) continue;
    byPort.set(port, [...(byPort.get(port) ?? []), name]);
  }
  return [...byPort].filter(([, names]) => names.length > 1).map(([port, names]) => {
    const listed = `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
    return `${listed} are ${names.length === 2 ? 'both' : 'all'} ${port}: each listener needs a port of its own`;
  });
}

function withoutDatabaseUrl(table: SettingsTable, env: Env): SettingsTable {
  if (isSet(DATABASE_SETTINGS.databaseUrl, env)) return table;
  const { databaseUrl: _unset, ...rest } = table;
  return rest;
}
