/**
 * The 503 of shed load: a bounded work queue (the platform's BoundedQueue)
 * refused a task; a RetryLaterError ("busy, retry after N s", docs/http.md).
 * Its own class because the error mapping does not log it (a flood of them
 * must not flood the error log; see handle-errors.ts).
 */
import { RetryLaterError } from './retry-later-error.ts';

export class QueueFullError extends RetryLaterError {
  constructor(retryAfterSeconds: number) {
    super('server busy, retry later', { code: 'server_busy', retryAfterSeconds });
    this.name = 'QueueFullError';
  }
}
