/**
 * The headers by which the edge holds the authorization server's delayed refusals (docs/http.md, "Fair forwarding"):
 * EDGE_HOLDS_REFUSALS on every forwarded request; HOLD_MS (the delay) and, for a user login, REFUSED_MS (how long the
 * same attempt stays refused) on such a refusal, removed by the edge (its held-refusals.ts and repeated-refusals.ts).
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
