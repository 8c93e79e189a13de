/**
 * pino logger factory: JSON lines to stdout, level from `LOG_LEVEL` (default `info`).
 * `err` goes through serializeError(): payloads (`rawPacket`, `data`, `body`,
 * ...), configuration and credential headers are never written. A line
 * written while a request runs carries its `reqId` (request-context.ts).
 *
 * Usage:
 * ```ts
 * const log = createLogger('resource-server');
 * log.info({ port }, 'listening');
 * ```
 */
import { levels, pino, type DestinationStream, type Logger } from 'pino';
import { requestContext } from './request-context.ts';
import { serializeError } from './serialize-error.ts';

/** `destination` defaults to stdout (tests pass a stream to read the lines). */
export function createLogger(name: string, destination?: DestinationStream): Logger {
  // An unknown level must not crash here: the settings check reports it as one line.
  const wanted = process.env['LOG_LEVEL'];
  const level = wanted && (wanted === 'silent' || wanted in levels.values) ? wanted : 'info';
  const options = {
    name,
    level,
    serializers: { err: serializeError },
    mixin: () => requestContext.getStore() ?? {},
  };
  return destination ? pino(options, destination) : pino(options);
}
