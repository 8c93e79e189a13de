/**
 * Environment → validated configuration of the authorization server through its settings table: DATABASE_URL
 * required; every bad or missing value one line naming its variable, never a silent fallback, all reported together;
 * PUBLIC_BASE_URL an http(s) URL without query or fragment (a trailing slash removed).
 */
import { loadSettings, type Env } from '@heroes/platform/settings';
import { resolveConfig, type AuthServerConfig } from './auth-server-config.ts';
import { SETTINGS } from './settings.ts';

/**
 * Usage:
 *   const config = loadConfig(process.env);
 */
export function loadConfig(env: Env = process.env): AuthServerConfig {
  const { logLevel: _logLevel, publicPort: _publicPort, dataDir: _dataDir, ...settings } = loadSettings(SETTINGS, env);
  return resolveConfig(settings);
}
