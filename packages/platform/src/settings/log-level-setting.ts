/**
 * The level a logger starts at (createLogger), read through the one
 * LOG_LEVEL entry (shared-settings.ts).
 *
 * Usage: `pino({ level: startupLogLevel(process.env) })`
 */
import { readSettings, type Env } from './define-settings.ts';
import { SHARED_SETTINGS } from './shared-settings.ts';

const LOG_LEVEL = { logLevel: SHARED_SETTINGS.logLevel };

/**
 * LOG_LEVEL for a logger made before the settings are checked: a value the
 * entry refuses starts it at `info`, and the process's settings check then
 * reports that value (one line, exit 1), so nothing is silently ignored.
 */
export function startupLogLevel(env: Env): string {
  return readSettings(LOG_LEVEL, env).values.logLevel ?? 'info';
}
