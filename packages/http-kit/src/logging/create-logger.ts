/**
 * pino logger factory: JSON lines to stdout, level from `LOG_LEVEL` (default `info`).
 * `err` goes through serializeError(): payloads (`rawPacket`, `data`, `body`,
 * ...), configuration and credential headers are never written.
 *
 * Usage:
 * ```ts
 * const log = createLogger('resource-server');
 * log.info({ port }, 'listening');
 * ```
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { serializeError } from './serialize-error.ts';

/** `destination` defaults to stdout (tests pass a stream to read the lines). */
export function createLogger(name: string, destination?: DestinationStream): Logger {
  const options = { name, level: process.env['LOG_LEVEL'] ?? 'info', serializers: { err: serializeError } };
  return destination ? pino(options, destination) : pino(options);
}
