/**
 * The HAProxy configuration of `npm run cluster`: one frontend per tier.
 * - `edge` (PORT): round-robin over the resource servers;
 * - `auth` (AUTH_PORT, loopback): round-robin over the authorization
 *   servers; the resource servers use it as AUTH_SERVER_URL.
 * Rules:
 * - a replica is in rotation only while GET /health/ready answers 200
 *   (checked every 500 ms; out after 2 failures, back after 1 success);
 * - a request that never reached a replica (its connection failed) is
 *   retried on another replica (`retry-on conn-failure`, `redispatch`);
 * - a request that reached a replica which then died without answering is
 *   retried only when replaying it changes nothing: a safe method (GET,
 *   HEAD, OPTIONS: RFC 9110 section 9.2.1), a token introspection (RFC 7662)
 *   or revocation (RFC 7009, idempotent). Any other (`disable-l7-retry`)
 *   gets 502, since its replica may have committed it: a replayed POST
 *   /heroes would answer 409 to a create that succeeded, a replayed code or
 *   refresh grant would revoke the tokens it had just issued. Clients retry
 *   those themselves (creates with the same Idempotency-Key,
 *   docs/heroes-api.md);
 * - requests are small, so HAProxy can buffer and replay them;
 * - HAProxy's own 502, 503 and 504 are JSON errors as the servers' own
 *   (`{"error": ...}`, docs/http.md), a 503 with Retry-After.
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
