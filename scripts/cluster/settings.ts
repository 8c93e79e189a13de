/**
 * Settings `npm run cluster` reads itself: the catalogue's and the servers'
 * entries (one declaration each, taken by reference), the replica counts
 * and the replicas' ports (free ones when unset).
 */
import { SETTINGS as AUTH_SETTINGS } from '@heroes/auth-server/settings';
import { defineSettings, EnvValueError, integer, parsePort, SHARED_SETTINGS, type EnvParser, type ReadSetting } from '@heroes/platform/settings';
import { SETTINGS as RESOURCE_SETTINGS } from '@heroes/resource-server/settings';

const MAX_REPLICAS = 64;
const replicas = integer({ min: 1, max: MAX_REPLICAS });

/** A comma- or blank-separated list of 1 to 64 distinct ports from 1 to 65535, e.g. `9001,9002`. */
const parsePortList: EnvParser<number[]> = (raw) => {
  const ports = raw.split(/[\s,]+/).filter(Boolean).map((item) => {
    try {
      const port = parsePort(item);
      if (port !== 0) return port;
    } catch {
      // reported below, with the whole rule
    }
    throw new EnvValueError(`a list of ports from 1 to 65535 such as 9001,9002 (got '${item}')`);
  });
  if (ports.length === 0 || ports.length > MAX_REPLICAS) throw new EnvValueError(`a list of 1 to ${MAX_REPLICAS} ports`);
  if (new Set(ports).size !== ports.length) throw new EnvValueError('a list of distinct ports');
  return ports;
};

const CLUSTER_PORTS = {
  auth: {
    env: 'CLUSTER_AUTH_PORTS', parse: parsePortList, optional: true,
    doc: 'the authorization server replicas\' ports on 127.0.0.1, one per replica (e.g. `9101,9102`); free ones when unset',
  },
  edge: {
    env: 'CLUSTER_EDGE_PORTS', parse: parsePortList, optional: true,
    doc: 'the resource server replicas\' ports on 127.0.0.1, one per replica (e.g. `9201,9202`); free ones when unset',
  },
} as const;

export const CLUSTER_SETTINGS = defineSettings({
  port: SHARED_SETTINGS.port,
  authPort: SHARED_SETTINGS.authPort,
  publicBaseUrl: SHARED_SETTINGS.publicBaseUrl,
  clientSecret: RESOURCE_SETTINGS.clientSecret,
  // AUTH_KEYS_FILE's default is computed from HEROES_DATA_DIR's entry, read before it.
  dataDir: SHARED_SETTINGS.dataDir,
  keysFile: AUTH_SETTINGS.keysFile,
  shutdownTimeoutMs: SHARED_SETTINGS.shutdownTimeoutMs,
  authReplicaPorts: CLUSTER_PORTS.auth,
  edgeReplicaPorts: CLUSTER_PORTS.edge,
  authReplicas: {
    env: 'CLUSTER_AUTH_REPLICAS', parse: replicas, default: (read: ReadSetting) => read(CLUSTER_PORTS.auth)?.length ?? 2,
    defaultDoc: 'CLUSTER_AUTH_PORTS\' count, else 2', doc: 'authorization server replicas behind HAProxy',
  },
  edgeReplicas: {
    env: 'CLUSTER_EDGE_REPLICAS', parse: replicas, default: (read: ReadSetting) => read(CLUSTER_PORTS.edge)?.length ?? 2,
    defaultDoc: 'CLUSTER_EDGE_PORTS\' count, else 2', doc: 'resource server replicas behind HAProxy',
  },
});
