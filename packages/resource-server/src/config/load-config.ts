/**
 * Environment → validated configuration of the resource-server process.
 * - DATABASE_URL is required (the root start script resolves it).
 * - numbers must be positive integers, else start-up fails with a clear message.
 * - RESOURCE_SERVER_CLIENT_SECRET unset → the shared generated secret file.
 * - AUTH_SERVER_URL unset → http://127.0.0.1:$AUTH_PORT (default port 8889).
 */
import { dataDir } from '@heroes/db';
import { readOrCreateClientSecret } from './client-secret.ts';
import { resolveConfig, type ResourceServerConfig } from './resource-server-config.ts';

type Env = Record<string, string | undefined>;

/**
 * Usage:
 *   const config = await loadConfig(process.env);
 */
export async function loadConfig(env: Env = process.env): Promise<ResourceServerConfig> {
  const databaseUrl = env.DATABASE_URL;
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  const clientSecret = env.RESOURCE_SERVER_CLIENT_SECRET || (await readOrCreateClientSecret(dataDir));
  return resolveConfig({
    databaseUrl,
    clientSecret,
    port: int(env, 'PORT', 0),
    host: env.HOST || undefined,
    // Same machine by default: the authorization server's own AUTH_PORT.
    authServerUrl: env.AUTH_SERVER_URL || (env.AUTH_PORT ? `http://127.0.0.1:${int(env, 'AUTH_PORT', 1)}` : undefined),
    clientId: env.RESOURCE_SERVER_CLIENT_ID || undefined,
    bcryptCost: int(env, 'BCRYPT_COST', 4),
    introspectionCacheMax: int(env, 'INTROSPECTION_CACHE_MAX', 1),
    introspectionCacheTtlMs: int(env, 'INTROSPECTION_CACHE_TTL_MS', 0),
    introspectionNegativeTtlMs: int(env, 'INTROSPECTION_NEGATIVE_TTL_MS', 0),
    introspectionTimeoutMs: int(env, 'INTROSPECTION_TIMEOUT_MS', 1),
    authProxyTimeoutMs: int(env, 'AUTH_PROXY_TIMEOUT_MS', 1),
    trustProxy: bool(env, 'TRUST_PROXY'),
    maxBodyBytes: int(env, 'MAX_BODY_BYTES', 1),
    requestTimeoutMs: int(env, 'REQUEST_TIMEOUT_MS', 0),
    headersTimeoutMs: int(env, 'HEADERS_TIMEOUT_MS', 1),
    dbPoolSize: int(env, 'DB_POOL_SIZE', 1),
    dbConnectTimeoutMs: int(env, 'DB_CONNECT_TIMEOUT_MS', 1),
  });
}

function int(env: Env, name: string, min: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be an integer ≥ ${min}, got '${raw}'`);
  return Number(raw);
}

function bool(env: Env, name: string): boolean | undefined {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return undefined;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new Error(`${name} must be 1/true/yes or 0/false/no, got '${env[name]}'`);
}
