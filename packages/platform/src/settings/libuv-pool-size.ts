/**
 * libuv's thread-pool size (UV_THREADPOOL_SIZE, default 4): how many bcrypt hashes run at once, so the default
 * concurrency of the password-hash queues.
 * Usage: `default: (_values, env) => libuvPoolSize(env)` in a settings table.
 */
export function libuvPoolSize(env: NodeJS.ProcessEnv = process.env): number {
  const size = Number(env['UV_THREADPOOL_SIZE']);
  return Number.isInteger(size) && size >= 1 ? size : 4;
}
