/**
 * Environment → validated configuration of the authorization server through its settings table: DATABASE_URL
 * required; every bad or missing value one line naming its variable, never a silent fallback, all reported together;
 * PUBLIC_BASE_URL an http(s) URL without query or fragment (a trailing slash removed).
 */
import { loadSettings, type Env, type SettingValues, type TRACING_SETTINGS } from '@heroes/platform/settings';
import { FIXED } from './defaults.ts';
import { SETTINGS } from './settings.ts';

export { defaultKeysFile } from './settings.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The settings it acts on: LOG_LEVEL is the logger's; PORT and HEROES_DATA_DIR only feed the defaults of PUBLIC_BASE_URL and AUTH_KEYS_FILE; the OTEL_* settings are register-tracing.ts's (checked here with the rest). */
export interface AuthServerConfig extends Omit<SettingValues<typeof SETTINGS>, 'logLevel' | 'publicPort' | 'dataDir' | keyof typeof TRACING_SETTINGS>, Mutable<typeof FIXED> {}

/**
 * Usage:
 *   const config = loadConfig(process.env);
 */
export function loadConfig(env: Env = process.env): AuthServerConfig {
  const { logLevel: _logLevel, publicPort: _publicPort, dataDir: _dataDir, ...settings } = loadSettings(SETTINGS, env);
  return { ...FIXED, ...settings };
}
