/**
 * The layers of the edge that `config.skipLayers` can leave out: a
 * test-only switch for the bench's layer table (scripts/bench/sections/layers.ts),
 * never a setting users see. app.ts composes them; the configuration names them.
 */
export const APP_LAYERS = ['nosniff', 'request-id', 'health', 'metrics', 'forwarder', 'cors', 'log', 'compression', 'list-cache'] as const;
export type AppLayer = (typeof APP_LAYERS)[number];
