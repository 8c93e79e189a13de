/**
 * The HttpError hierarchy alone (`@heroes/http-kit/errors`): for modules that
 * name an HTTP meaning without loading the middleware.
 */
export * from './errors/http-error.ts';
export * from './errors/client-errors.ts';
export * from './errors/retry-later-error.ts';
