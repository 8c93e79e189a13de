import type { Logger } from 'pino';
import { defaults } from './defaults.ts';

/** Everything a resource server needs, fully resolved (see defaults.ts for each key). */
export interface ResourceServerConfig {
  databaseUrl: string;
  port: number;
  host: string;
  authServerUrl: string;
  clientId: string;
  clientSecret: string;
  bcryptCost: number;
  introspectionCacheMax: number;
  introspectionCacheTtlMs: number;
  introspectionNegativeTtlMs: number;
  introspectionTimeoutMs: number;
  authProxyTimeoutMs: number;
  trustProxy: boolean;
  maxBodyBytes: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  dbPoolSize: number;
  dbConnectTimeoutMs: number;
  maxUsernameLength: number;
  maxPasswordBytes: number;
  maxHeroNameLength: number;
  heroesReadScope: string;
  heroesWriteScope: string;
  realm: string;
  /** Optional logger; http-kit's `createLogger('resource-server')` when absent. */
  logger?: Logger;
}

/** What callers must give; everything else falls back to defaults.ts. */
export type ResourceServerOptions = Partial<ResourceServerConfig> &
  Pick<ResourceServerConfig, 'databaseUrl' | 'clientSecret'>;

/**
 * Fills in defaults once (koa-compress style).
 *
 * Usage:
 *   const config = resolveConfig({ databaseUrl, clientSecret: 's3cret' });
 */
export function resolveConfig(options: ResourceServerOptions): ResourceServerConfig {
  const config: ResourceServerConfig = {
    ...defaults,
    ...stripUndefined(options),
    databaseUrl: options.databaseUrl,
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

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
