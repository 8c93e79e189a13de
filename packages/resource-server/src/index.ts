/**
 * The resource server's public surface: the server, its app and layers, its config and settings, the OpenAPI
 * document. Nothing else is imported from outside the package.
 */
export { APP_LAYERS, type AppLayer } from './app-layers.ts';
export { createApp, createAppLayers, type AppDeps, type AppLayers } from './app.ts';
export { createResourceServer, type ResourceServer, type RunningServer } from './create-resource-server.ts';
export { loadConfig } from './config/load-config.ts';
export { resolveConfig, type ResourceServerConfig, type ResourceServerOptions } from './config/resource-server-config.ts';
export { defaults } from './config/defaults.ts';
export { SETTINGS } from './config/settings.ts';
export { createOpenApiDocument } from './openapi/openapi-document.ts';
