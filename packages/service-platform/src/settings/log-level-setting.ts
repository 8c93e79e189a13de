/**
 * LOG_LEVEL, the same in every server: one entry, spread into each settings
 * table, and the level a logger starts at (createLogger), read through it.
 *
 * Usage: `defineSettings({ ...logLevelSettings(), port: ... })`
 */
import { readSettings, type Env } from './define-settings.ts';
import { parseLogLevel } from './env-parsers.ts';

export function logLevelSettings() {
  return { logLevel: { env: 'LOG_LEVEL', parse: parseLogLevel, default: 'info' as const, doc: 'pino log level' } };
}

/**
 * LOG_LEVEL for a logger made before the settings are checked: a value the
 * entry refuses starts it at `info`, and the process's settings check then
 * reports that value (one line, exit 1), so nothing is silently ignored.
 */
export function startupLogLevel(env: Env): string {
  return readSettings(logLevelSettings(), env).values.logLevel ?? 'info';
}
