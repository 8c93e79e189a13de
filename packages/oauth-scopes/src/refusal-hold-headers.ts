/**
 * The two headers by which the edge holds the authorization server's
 * deliberately delayed refusals (docs/http.md, "Fair forwarding"): the edge
 * marks every forwarded request with EDGE_HOLDS_REFUSALS; the authorization
 * server, believing it only from a trusted peer, answers such a refusal at
 * once with HOLD_MS (the delay, ms), which the edge removes and waits out
 * without a connection to the authorization server.
 */
export const EDGE_HOLDS_REFUSALS = 'x-edge-holds-refusals';
export const HOLD_MS = 'x-edge-hold-ms';
