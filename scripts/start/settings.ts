/**
 * Settings `npm start` reads itself, and the check of every setting of both
 * servers before anything starts: one line per problem, exit 1.
 */
import { SETTINGS as AUTH_SETTINGS } from '@heroes/auth-server';
import { defineSettings, integer, parseDatabaseUrl, parsePort, parseText, readSettings, type Env, type SettingsTable } from '@heroes/http-kit';
import { SETTINGS as RESOURCE_SETTINGS } from '@heroes/resource-server';

export const START_SETTINGS = defineSettings({
  databaseUrl: {
    env: 'DATABASE_URL', parse: parseDatabaseUrl, optional: true, secret: true, defaultDoc: 'unset → embedded PostgreSQL',
    doc: 'PostgreSQL connection URL (the servers require it; `npm start` passes the one it resolved)',
  },
  dataDir: {
    env: 'HEROES_DATA_DIR', parse: parseText, optional: true, defaultDoc: '`.data/`',
    doc: 'local state: embedded cluster, generated keys and secrets',
  },
  embeddedPgPort: { env: 'EMBEDDED_PG_PORT', parse: integer({ min: 1, max: 65_535 }), default: 54329, doc: 'port of the embedded PostgreSQL server' },
  port: { env: 'PORT', parse: parsePort, default: 8888, doc: 'public port (resource server)' },
  authPort: { env: 'AUTH_PORT', parse: integer({ min: 1, max: 65_535 }), default: 8889, doc: 'authorization server port' },
  authHost: {
    env: 'AUTH_HOST', parse: parseText, default: '127.0.0.1', defaultDoc: '`127.0.0.1` (npm start), `0.0.0.0` (the server alone)',
    doc: 'authorization server listen address: `npm start` keeps it on loopback, so the edge is the one public door',
  },
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
  return problems;
}

function withoutDatabaseUrl(table: SettingsTable, env: Env): SettingsTable {
  if (env['DATABASE_URL']) return table;
  const { databaseUrl: _unset, ...rest } = table;
  return rest;
}
