/**
 * The layers of the edge that `npm run bench`'s layer table (scripts/bench/sections/layers.ts) prices one by one:
 * app.ts names them in createAppLayers; `list-cache` is the hero list cache (option `heroListCacheMs: 0` leaves it out).
 */
export const APP_LAYERS = ['nosniff', 'request-id', 'health', 'metrics', 'forwarder', 'cors', 'log', 'compression', 'list-cache'] as const;
export type AppLayer = (typeof APP_LAYERS)[number];
