/**
 * The HAProxy configuration of `npm run cluster`: `edge` (PORT) and `auth` (AUTH_PORT, loopback) round-robin over
 * replicas in rotation while /health/ready answers 200. A request that never reached a replica is retried on
 * another; one whose replica died before answering only when replaying changes nothing (safe methods, RFC 7662,
 * RFC 7009), else 502: clients retry creates with their Idempotency-Key. HAProxy's own 5xx are JSON (docs/http.md).
 */
export interface Backend {
  host: string;
  port: number;
}

export interface ClusterLayout {
  edgePort: number;
  authPort: number;
  edges: Backend[];
  auths: Backend[];
}

/** A request that may have been committed is never replayed (see above). */
const ONLY_SAFE_METHODS_REPLAYED = '  http-request disable-l7-retry unless METH_GET || METH_HEAD || METH_OPTIONS || { path /auth/introspect /auth/revoke }';

export function haproxyConfig({ edgePort, authPort, edges, auths }: ClusterLayout): string {
  const servers = (prefix: string, backends: Backend[]) =>
    [ONLY_SAFE_METHODS_REPLAYED, ...backends.map((b, i) => `  server ${prefix}${i + 1} ${b.host}:${b.port} check inter 500ms fall 2 rise 1`)].join('\n');
  return `global
  maxconn 4096

defaults
  mode http
  timeout connect 2s
  timeout client 60s
  timeout server 60s
  timeout http-request 30s
  option http-buffer-request
  retries 3
  http-error status 502 content-type application/json string "{\\"error\\":\\"bad gateway\\"}"
  http-error status 503 content-type application/json string "{\\"error\\":\\"service unavailable\\"}" hdr Retry-After 1
  http-error status 504 content-type application/json string "{\\"error\\":\\"gateway timeout\\"}"
  retry-on conn-failure empty-response junk-response response-timeout 0rtt-rejected
  option redispatch 1
  option httpchk GET /health/ready
  http-check expect status 200

frontend edge
  bind 127.0.0.1:${edgePort}
  default_backend edges

frontend auth
  bind 127.0.0.1:${authPort}
  default_backend auths

backend edges
  balance roundrobin
${servers('edge', edges)}

backend auths
  balance roundrobin
${servers('auth', auths)}
`;
}
