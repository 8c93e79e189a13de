/**
 * The 503 of shed load: a bounded work queue (the platform's BoundedQueue)
 * refused a task. Its own class because the error mapping does not log it
 * (a flood of them must not flood the error log; see handle-errors.ts).
 */
import { ServiceUnavailableError } from './client-errors.ts';

export class QueueFullError extends ServiceUnavailableError {
  constructor(readonly retryAfterSeconds: number) {
    super('server busy, retry later', { code: 'server_busy', headers: { 'Retry-After': String(retryAfterSeconds) } });
    this.name = 'QueueFullError';
  }
}
