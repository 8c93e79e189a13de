/**
 * pino logger factory: JSON lines to stdout, level from `LOG_LEVEL` (default `info`).
 *
 * Usage:
 * ```ts
 * const log = createLogger('resource-server');
 * log.info({ port }, 'listening');
 * ```
 */
import { pino, type Logger } from 'pino';

export function createLogger(name: string): Logger {
  return pino({ name, level: process.env['LOG_LEVEL'] ?? 'info' });
}
