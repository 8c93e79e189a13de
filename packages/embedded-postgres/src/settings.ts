/**
 * EMBEDDED_PG_PORT, declared once: `npm start` checks it with the rest of
 * its settings (scripts/start/settings.ts spreads this entry) and the
 * embedded server reads it through the same entry.
 */
import { defineSettings, integer, loadSettings, type Env } from '@heroes/platform/settings';

export const EMBEDDED_SETTINGS = defineSettings({
  embeddedPgPort: { env: 'EMBEDDED_PG_PORT', parse: integer({ min: 1, max: 65_535 }), default: 54329, doc: 'port of the embedded PostgreSQL server' },
});

/** The embedded server's port; a SettingsError (one line) for a value the entry refuses. */
export function embeddedPort(env: Env = process.env): number {
  return loadSettings(EMBEDDED_SETTINGS, env).embeddedPgPort;
}
