/**
 * Settings `npm run cluster` reads itself: the servers' own entries (one
 * declaration each, taken from their tables) and the replica counts.
 */
import { SETTINGS as AUTH_SETTINGS } from '@heroes/auth-server/settings';
import { defineSettings, integer } from '@heroes/platform/settings';
import { SETTINGS as RESOURCE_SETTINGS } from '@heroes/resource-server/settings';

const replicas = integer({ min: 1, max: 64 });

export const CLUSTER_SETTINGS = defineSettings({
  port: RESOURCE_SETTINGS.port,
  authPort: RESOURCE_SETTINGS.authPort,
  publicBaseUrl: RESOURCE_SETTINGS.publicBaseUrl,
  clientSecret: RESOURCE_SETTINGS.clientSecret,
  keysFile: AUTH_SETTINGS.keysFile,
  shutdownTimeoutMs: RESOURCE_SETTINGS.shutdownTimeoutMs,
  authReplicas: { env: 'CLUSTER_AUTH_REPLICAS', parse: replicas, default: 2, doc: 'authorization server replicas behind HAProxy' },
  edgeReplicas: { env: 'CLUSTER_EDGE_REPLICAS', parse: replicas, default: 2, doc: 'resource server replicas behind HAProxy' },
});
