/**
 * The authorization server's resolved configuration: every setting (settings.ts) and fixed rule (defaults.ts), and
 * resolveConfig, which fills in what callers leave out. Signing keys and the logger are options, not configuration.
 */
import type { Logger } from 'pino';
import type { SettingValues, TRACING_SETTINGS } from '@heroes/platform/settings';
import { DEFAULTS, type FIXED } from './defaults.ts';
import type { ProviderKeys } from './keys.ts';
import { defaultKeysFile, type SETTINGS } from './settings.ts';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The settings it acts on: LOG_LEVEL is the logger's; PORT and HEROES_DATA_DIR only feed the defaults of PUBLIC_BASE_URL and AUTH_KEYS_FILE; the OTEL_* settings are register-tracing.ts's (checked here with the rest). */
export interface AuthServerConfig extends Omit<SettingValues<typeof SETTINGS>, 'logLevel' | 'publicPort' | 'dataDir' | keyof typeof TRACING_SETTINGS>, Mutable<typeof FIXED> {}

/** What callers must give (`databaseUrl`); everything else falls back to defaults.ts. */
export interface AuthServerOptions extends Partial<AuthServerConfig> {
  databaseUrl: string;
  /** Keys to use instead of reading/creating `keysFile`. */
  keys?: ProviderKeys;
  /** Logger for request lines and errors. Default: createLogger('auth-server'). */
  logger?: Logger;
}

/**
 * Usage:
 *   const config = resolveConfig({ databaseUrl });
 */
export function resolveConfig(options: AuthServerOptions): AuthServerConfig {
  const { keys: _keys, logger: _logger, ...overrides } = options;
  const { logLevel: _logLevel, publicPort: _publicPort, ...defaults } = DEFAULTS;
  return { ...defaults, metricsAllow: [], trustedProxies: [], keysFile: defaultKeysFile(), managementPort: undefined, ...overrides };
}
