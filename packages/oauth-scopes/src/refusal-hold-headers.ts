/**
 * The headers by which the edge holds the authorization server's deliberately delayed refusals (docs/http.md, "Fair
 * forwarding"), each believed only from a trusted peer and removed before the client sees the answer.
 */
/** On every request the edge forwards: the edge holds delayed refusals itself. */
export const EDGE_HOLDS_REFUSALS = 'x-edge-holds-refusals';
/** On a refusal answered at once: how long (ms) the edge waits before sending it on, with no upstream connection. */
export const HOLD_MS = 'x-edge-hold-ms';
/** On a refused user login: how long (ms) the same attempt (account, client address) stays refused; the edge answers its repeats. */
export const REFUSED_MS = 'x-edge-refused-ms';

/**
 * The words of a throttle refusal that state its Retry-After, in the
 * authorization server's message and nowhere else in it: the edge restates
 * them when it repeats the refusal later.
 */
export const retryAfterWords = (seconds: number) => `retry after ${seconds} s`;
