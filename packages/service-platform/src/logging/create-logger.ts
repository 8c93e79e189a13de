/**
 * The pino logger of a process: JSON lines to stdout at `LOG_LEVEL`; `err` through serializeError() (payloads,
 * configuration and credential headers never written); a line written during a request carries its `reqId`.
 * stdout is asynchronous, a few milliseconds' lines in one write (batched-stdout.ts), flushed synchronously at exit.
 * Usage: createLogger('resource-server').info({ port }, 'listening')
 */
import { pino, type DestinationStream, type Logger } from 'pino';
import { requestContext } from './request-context.ts';
import { batchedStdout } from './batched-stdout.ts';
import { serializeError } from '@heroes/http-kit';
import { startupLogLevel } from '../settings/log-level-setting.ts';

/** What requestFields() returns when it has nothing to add: never merged into (see mergeRequestFields). */
const NOTHING: Readonly<Record<string, never>> = Object.freeze({});

/**
 * The request's fields for a line, as a new object: pino merges the line's
 * own fields into what mixin() returns, so handing it the request context
 * itself would carry one line's fields onto every later line of the request.
 * A line that carries its own `reqId` (the request line) or is written
 * outside a request gets NOTHING.
 */
function requestFields(line: object): { reqId?: string } {
  if ((line as { reqId?: unknown }).reqId !== undefined) return NOTHING;
  const store = requestContext.getStore();
  return store === undefined ? NOTHING : { reqId: store.reqId };
}

/** pino's default merge (the line's fields win over the mixin's), without copying the line when there is nothing to add. */
function mergeRequestFields(line: object, fields: object): object {
  return fields === NOTHING ? line : Object.assign(fields, line);
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
    mixinMergeStrategy: mergeRequestFields,
  };
  return pino(options, destination ?? batchedStdout());
}
