/**
 * The pino logger of a process: JSON lines to stdout at `LOG_LEVEL`; `err` through serializeError() (payloads,
 * configuration and credential headers never written); a line written during a request carries its `reqId`. stdout is
 * pino's asynchronous destination, written at 4 KiB or every 500 ms and flushed synchronously at exit (process.exit(),
 * an uncaught exception, the loop's end): only SIGKILL loses lines.
 */
import { destination as pinoDestination, pino, type DestinationStream, type Logger } from 'pino';
import { requestContext } from './request-context.ts';
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

let stdout: ReturnType<typeof pinoDestination> | undefined;

function sharedStdout(): DestinationStream {
  if (stdout === undefined) {
    const stream = pinoDestination({ dest: 1, sync: false, minLength: 4096 });
    setInterval(() => stream.flush(), 500).unref();
    process.on('exit', () => stream.flushSync());
    stdout = stream;
  }
  return stdout;
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
  return pino(options, destination ?? sharedStdout());
}
