/**
 * pino logger factory: JSON lines to stdout, level from `LOG_LEVEL` (default
 * `info`), read through its settings entry (settings/log-level-setting.ts).
 * `err` goes through serializeError(): payloads (`rawPacket`, `data`, `body`,
 * ...), configuration and credential headers are never written. A line
 * written while a request runs carries its `reqId` (request-context.ts).
 * stdout is written asynchronously (sonic-boom, pino's own destination):
 * lines written in one turn of the event loop go out in one write instead
 * of one blocking write(2) per request line (a few % of the CPU of a short
 * request); pino flushes what is pending synchronously when the process
 * exits (also process.exit() and uncaught exceptions), so only a SIGKILL
 * can lose the last milliseconds of lines.
 *
 * Usage:
 * ```ts
 * const log = createLogger('resource-server');
 * log.info({ port }, 'listening');
 * ```
 */
import { destination as fileDestination, pino, type DestinationStream, type Logger } from 'pino';
import { requestContext } from './request-context.ts';
import { serializeError } from '@heroes/http-kit';
import { startupLogLevel } from '../settings/log-level-setting.ts';

/**
 * The request's fields for a line, as a new object: pino merges the line's
 * own fields into what mixin() returns, so handing it the request context
 * itself would carry one line's fields onto every later line of the request.
 */
function requestFields(): { reqId?: string } {
  const store = requestContext.getStore();
  return store === undefined ? {} : { reqId: store.reqId };
}

/** `destination` defaults to stdout (tests pass a stream to read the lines). */
export function createLogger(name: string, destination?: DestinationStream): Logger {
  // An unknown level must not crash here: the settings check reports it as one line.
  const level = startupLogLevel(process.env);
  const options = {
    name,
    level,
    serializers: { err: serializeError },
    mixin: requestFields,
  };
  return pino(options, destination ?? fileDestination({ dest: 1, sync: false }));
}
