/**
 * HttpKitOptions and their resolution (runs once per createHttpKit).
 */
import { pino, type Logger } from 'pino';
import type { ErrorTranslator } from './errors/to-problem.ts';
import { CodecRegistry } from './codecs/codec-registry.ts';
import { createDefaultRegistry } from './codecs/create-default-registry.ts';
import { DEFAULTS } from './defaults.ts';

export interface HttpKitOptions {
  /** Codecs for request and response bodies. Default: createDefaultRegistry(). */
  registry?: CodecRegistry;
  /** Request body limit in bytes. Default 10 MiB (DEFAULTS.maxBodyBytes). */
  maxBodyBytes?: number;
  /**
   * Where failed requests (5xx) are logged: the platform's createLogger() in
   * the servers. Default: a plain pino logger named `http` on stdout.
   */
  logger?: Logger;
  /** Most parameters in a query string; more → 400. Default 1,000 (DEFAULTS.maxQueryParameters). */
  maxQueryParameters?: number;
  /** Smallest response gzipped, in bytes. Default 0 (DEFAULTS.compressThreshold). */
  compressThreshold?: number;
  /**
   * Test-only: layers of the kit left out, so `npm run bench` can price each
   * one (its layer table). Never a setting: the service runs with all of them.
   */
  skip?: { compression?: boolean };
  /**
   * Foreign errors the error mapping should answer as HttpErrors (each server
   * passes its database answers). Default: none.
   */
  translateError?: ErrorTranslator;
}

export type ResolvedHttpKitOptions = Readonly<Required<Omit<HttpKitOptions, 'skip' | 'translateError'>>>;

export function resolveOptions(options: HttpKitOptions = {}): ResolvedHttpKitOptions {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULTS.maxBodyBytes;
  const compressThreshold = options.compressThreshold ?? DEFAULTS.compressThreshold;
  assertCount('maxBodyBytes', maxBodyBytes);
  const maxQueryParameters = options.maxQueryParameters ?? DEFAULTS.maxQueryParameters;
  assertCount('compressThreshold', compressThreshold);
  assertCount('maxQueryParameters', maxQueryParameters);
  if (options.registry !== undefined && !(options.registry instanceof CodecRegistry)) {
    throw new TypeError('registry must be a CodecRegistry');
  }
  return Object.freeze({
    registry: options.registry ?? createDefaultRegistry(),
    maxBodyBytes,
    logger: options.logger ?? pino({ name: 'http' }),
    compressThreshold,
    maxQueryParameters,
  });
}

function assertCount(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new TypeError(`${name} must be a non-negative integer`);
}
