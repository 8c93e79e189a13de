/**
 * The one error type every HTTP failure is expressed in: `status` sent, `code` a stable name, `expose`
 * (default status < 500: only exposed errors show their message and `details`), `details` merged into the body,
 * `headers` set on the answer, the original as `cause`.
 * Usage: throw new HttpError(422, 'bad hero', { code: 'bad_hero', details: { field: 'name' } })
 */
export interface HttpErrorOptions {
  code?: string;
  expose?: boolean;
  details?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly expose: boolean;
  readonly details: Readonly<Record<string, unknown>>;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = options.code ?? toCode(message);
    this.expose = options.expose ?? status < 500;
    this.details = options.details ?? {};
    this.headers = options.headers ?? {};
  }

  /** Alias read by Koa and http-errors aware code. */
  get statusCode(): number {
    return this.status;
  }
}

function toCode(message: string): string {
  return message.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
}
