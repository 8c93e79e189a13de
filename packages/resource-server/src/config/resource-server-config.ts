/**
 * The edge's settings → resolved config (resolveConfig): defaults filled in once, the client-address trust
 * compiled, lists copied so no caller shares the defaults' arrays.
 */
import type { Logger } from 'pino';
import type { ProxyTrust, SettingValues } from '@heroes/platform';
import type { TRACING_SETTINGS } from '@heroes/platform/settings';
import { defaults, type FIXED } from './defaults.ts';
import type { SETTINGS } from './settings.ts';

type FromSettings = SettingValues<typeof SETTINGS>;

/** Everything a resource server needs, fully resolved (settings.ts and defaults.ts document each key); the OTEL_* settings are register-tracing.ts's. */
export interface ResourceServerConfig extends Omit<FromSettings, 'clientSecret' | 'authPort' | 'logLevel' | 'dataDir' | keyof typeof TRACING_SETTINGS>, Mutable<typeof FIXED> {
  clientSecret: string;
  /** Optional logger; the platform's `createLogger('resource-server')` when absent. */
  logger?: Logger;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * What callers must give; everything else falls back to defaults.ts.
 * `trustProxy` may also be a hop count (`1`: one ingress) or `true` (one hop).
 */
export type ResourceServerOptions = Partial<Omit<ResourceServerConfig, 'trustProxy'>> &
  Pick<ResourceServerConfig, 'databaseUrl' | 'clientSecret'> & { trustProxy?: ProxyTrust | boolean | number };

/**
 * Fills in defaults once (koa-compress style).
 *
 * Usage:
 *   const config = resolveConfig({ databaseUrl, clientSecret: 's3cret' });
 */
export function resolveConfig(options: ResourceServerOptions): ResourceServerConfig {
  const { authPort: _authPort, logLevel: _logLevel, ...base } = defaults;
  const config: ResourceServerConfig = {
    ...base,
    metricsAllow: [...defaults.metricsAllow],
    corsOrigins: [...defaults.corsOrigins],
    ...stripUndefined(options),
    trustProxy: proxyTrust(options.trustProxy ?? defaults.trustProxy),
    databaseUrl: options.databaseUrl,
    databaseDirectUrl: options.databaseDirectUrl,
    managementPort: options.managementPort,
    clientSecret: options.clientSecret,
  };
  if (!config.databaseUrl) throw new Error('databaseUrl is required');
  if (!config.clientSecret) throw new Error('clientSecret is required');
  if (!Number.isInteger(config.bcryptCost) || config.bcryptCost < 4 || config.bcryptCost > 31) {
    throw new Error(`bcryptCost must be an integer from 4 to 31, got ${config.bcryptCost}`);
  }
  config.authServerUrl = config.authServerUrl.replace(/\/+$/, '');
  return config;
}

function proxyTrust(value: ProxyTrust | boolean | number): ProxyTrust {
  if (typeof value === 'object') return value;
  const hops = value === true ? 1 : value === false ? 0 : value;
  return hops > 0 ? { kind: 'hops', hops } : { kind: 'none' };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
