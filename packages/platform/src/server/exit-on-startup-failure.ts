/**
 * What a server prints when it cannot start, then exit 1: a SettingsError as one `<name>: <VARIABLE> must be …`
 * line per problem, a taken or forbidden port as one line naming the address, anything else as one fatal JSON log
 * line (serialized without payloads). No stack traces for the operator's mistakes.
 */
import type { Logger } from 'pino';
import { SettingsError } from '../settings/define-settings.ts';

export function exitOnStartupFailure(err: unknown, name: string, logger: Logger): never {
  for (const line of startupFailureLines(err)) process.stderr.write(`${name}: ${line}\n`);
  if (!(err instanceof SettingsError) && listenProblem(err) === undefined) {
    logger.fatal({ err }, `${name} failed to start`);
  }
  logger.flush?.();
  process.exit(1);
}

/** The operator-facing lines for a start-up failure (empty: log it instead). */
export function startupFailureLines(err: unknown): readonly string[] {
  if (err instanceof SettingsError) return err.problems;
  const listen = listenProblem(err);
  return listen === undefined ? [] : [listen];
}

function listenProblem(err: unknown): string | undefined {
  const { code, address, port, syscall } = (err ?? {}) as { code?: unknown; address?: unknown; port?: unknown; syscall?: unknown };
  if (syscall !== 'listen') return undefined;
  const where = `${typeof address === 'string' ? address : ''}:${String(port)}`;
  if (code === 'EADDRINUSE') return `cannot listen on ${where}: the port is already in use`;
  if (code === 'EACCES') return `cannot listen on ${where}: permission denied`;
  if (code === 'EADDRNOTAVAIL') return `cannot listen on ${where}: no such local address`;
  return undefined;
}
