/**
 * Settings `npm run cluster` reads itself: the catalogue's and the servers'
 * entries (one declaration each, taken by reference) and the replica counts.
 */
import { SETTINGS as AUTH_SETTINGS } from '@heroes/auth-server/settings';
import { defineSettings, integer, SHARED_SETTINGS } from '@heroes/platform/settings';
import { SETTINGS as RESOURCE_SETTINGS } from '@heroes/resource-server/settings';

const replicas = integer({ min: 1, max: 64 });

export const CLUSTER_SETTINGS = defineSettings({
  port: SHARED_SETTINGS.port,
  authPort: SHARED_SETTINGS.authPort,
  publicBaseUrl: SHARED_SETTINGS.publicBaseUrl,
  clientSecret: RESOURCE_SETTINGS.clientSecret,
  // AUTH_KEYS_FILE's default is computed from HEROES_DATA_DIR's entry, read before it.
  dataDir: SHARED_SETTINGS.dataDir,
  keysFile: AUTH_SETTINGS.keysFile,
  shutdownTimeoutMs: SHARED_SETTINGS.shutdownTimeoutMs,
  authReplicas: { env: 'CLUSTER_AUTH_REPLICAS', parse: replicas, default: 2, doc: 'authorization server replicas behind HAProxy' },
  edgeReplicas: { env: 'CLUSTER_EDGE_REPLICAS', parse: replicas, default: 2, doc: 'resource server replicas behind HAProxy' },
});
