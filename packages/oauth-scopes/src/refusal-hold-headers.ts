/**
 * The headers by which the edge holds the authorization server's
 * deliberately delayed refusals (docs/http.md, "Fair forwarding"): the edge
 * marks every forwarded request with EDGE_HOLDS_REFUSALS; the authorization
 * server, believing it only from a trusted peer, answers such a refusal at
 * once with HOLD_MS (the delay, ms), which the edge removes and waits out
 * without a connection to the authorization server. A refused user login
 * also carries REFUSED_MS: how long the same attempt (the same account from
 * the same client address) stays refused, so the edge may answer a repeat
 * of it itself until then (the edge's repeated-refusals.ts).
 */
export const EDGE_HOLDS_REFUSALS = 'x-edge-holds-refusals';
export const HOLD_MS = 'x-edge-hold-ms';
export const REFUSED_MS = 'x-edge-refused-ms';

/**
 * The words of a throttle refusal that state its Retry-After, in the
 * authorization server's message and nowhere else in it: the edge restates
 * them when it repeats the refusal later.
 */
export const retryAfterWords = (seconds: number) => `retry after ${seconds} s`;
