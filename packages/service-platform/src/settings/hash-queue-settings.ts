/**
 * The settings of a password-hash queue (queue/bounded-queue.ts), the same
 * in every server that hashes passwords: how many hashes run at once (by
 * default as many as libuv's thread pool runs) and how many may wait.
 * Spread into a settings table.
 *
 * Usage: `defineSettings({ ...hashQueueSettings(), port: ... })`
 */
import type { Env } from './define-settings.ts';
import { integer } from './env-parsers.ts';
import { libuvPoolSize } from './libuv-pool-size.ts';

export function hashQueueSettings() {
  return {
    passwordHashConcurrency: {
      env: 'PASSWORD_HASH_CONCURRENCY', parse: integer({ min: 1 }), default: (_values: Record<string, unknown>, env: Env) => libuvPoolSize(env),
      defaultDoc: '`$UV_THREADPOOL_SIZE`, else 4', doc: "password hashes (bcrypt) running at once per process (libuv's thread pool runs them)",
    },
    passwordHashQueueMax: {
      env: 'PASSWORD_HASH_QUEUE_MAX', parse: integer({ min: 0 }), default: 32,
      doc: 'password hashes waiting at most per process; one more answers 503 with Retry-After at once',
    },
  };
}
