/**
 * Environment → validated configuration of the resource server through its settings table: every bad or missing value
 * one line naming its variable, all reported together; RESOURCE_SERVER_CLIENT_SECRET unset → the shared generated
 * secret file; AUTH_SERVER_URL unset → http://127.0.0.1:$AUTH_PORT.
 */
import { dataDirFrom } from '@heroes/platform/local-state';
import { loadSettings, type Env } from '@heroes/platform';
import { readOrCreateClientSecret } from './client-secret.ts';
import { resolveConfig, type ResourceServerConfig } from './resource-server-config.ts';
import { SETTINGS } from './settings.ts';

/**
 * Usage:
 *   const config = await loadConfig(process.env);
 */
export async function loadConfig(env: Env = process.env): Promise<ResourceServerConfig> {
  const { authPort: _authPort, logLevel: _logLevel, dataDir, clientSecret, ...settings } = loadSettings(SETTINGS, env);
  return resolveConfig({ ...settings, clientSecret: clientSecret ?? readOrCreateClientSecret(dataDirFrom(dataDir)) });
}
