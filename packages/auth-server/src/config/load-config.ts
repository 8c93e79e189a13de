/**
 * Environment → validated configuration of the authorization server.
 *
 * Rules enforced here:
 * - DATABASE_URL is required (the root start script resolves it);
 * - numbers must be positive integers, ports 0–65535; a bad value is a
 *   one-line error naming the variable, never a silent fallback;
 * - PUBLIC_BASE_URL must be an http(s) URL without query or fragment; a
 *   trailing slash is removed.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULTS } from './defaults.ts';

export interface AuthServerConfig {
  databaseUrl: string;
  port: number;
  host: string;
  publicBaseUrl: string;
  accessTokenTtl: number;
  codeAccessTokenTtl: number;
  authCodeTtl: number;
  refreshTokenTtl: number;
  bcryptCost: number;
  keysFile: string;
  resourceServerClientId: string;
  purgeIntervalMs: number;
  secretCacheMax: number;
  secretCacheTtlMs: number;
  databasePoolSize: number;
  maxBodyBytes: number;
  baseScopes: readonly string[];
}

/** The repository root (this file is packages/auth-server/src/config/load-config.ts). */
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** Where generated keys live by default: `<repo>/.data` (or HEROES_DATA_DIR, as @heroes/db). */
export function defaultKeysFile(env: NodeJS.ProcessEnv = process.env): string {
  return path.join(env['HEROES_DATA_DIR'] ?? path.join(repoRoot, '.data'), 'auth-keys.json');
}

/**
 * Usage:
 *   const config = loadConfig(process.env);
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AuthServerConfig {
  const databaseUrl = env['DATABASE_URL'];
  if (!databaseUrl) throw new Error('DATABASE_URL is required');
  return {
    databaseUrl,
    port: integer(env, 'AUTH_PORT', DEFAULTS.port, 0, 65_535),
    host: env['AUTH_HOST'] || DEFAULTS.host,
    publicBaseUrl: baseUrl(env['PUBLIC_BASE_URL'] || DEFAULTS.publicBaseUrl),
    accessTokenTtl: integer(env, 'ACCESS_TOKEN_TTL', DEFAULTS.accessTokenTtl),
    codeAccessTokenTtl: integer(env, 'CODE_ACCESS_TOKEN_TTL', DEFAULTS.codeAccessTokenTtl),
    authCodeTtl: integer(env, 'AUTH_CODE_TTL', DEFAULTS.authCodeTtl),
    refreshTokenTtl: integer(env, 'REFRESH_TOKEN_TTL', DEFAULTS.refreshTokenTtl),
    bcryptCost: integer(env, 'BCRYPT_COST', DEFAULTS.bcryptCost, 4, 31),
    keysFile: env['AUTH_KEYS_FILE'] || defaultKeysFile(env),
    resourceServerClientId: env['RESOURCE_SERVER_CLIENT_ID'] || DEFAULTS.resourceServerClientId,
    purgeIntervalMs: integer(env, 'PURGE_INTERVAL_MS', DEFAULTS.purgeIntervalMs),
    secretCacheMax: DEFAULTS.secretCacheMax,
    secretCacheTtlMs: DEFAULTS.secretCacheTtlMs,
    databasePoolSize: DEFAULTS.databasePoolSize,
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', DEFAULTS.maxBodyBytes),
    baseScopes: DEFAULTS.baseScopes,
  };
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max} (got '${raw}')`);
  }
  return value;
}

function baseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`PUBLIC_BASE_URL must be an absolute URL (got '${raw}')`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash) {
    throw new Error(`PUBLIC_BASE_URL must be an http(s) URL without query or fragment (got '${raw}')`);
  }
  return url.href.replace(/\/+$/, '');
}
