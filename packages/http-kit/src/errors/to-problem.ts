/**
 * The one JSON error body, `{"error": "...", ...details}`: an HttpError's status (message and details when exposed);
 * what the caller's `translate` makes an HttpError (the servers' database answers: http-kit knows no database); an
 * error with a 400–599 `status`/`statusCode` that status; anything else 500 with details only in the log. An unexposed
 * 5xx never shows its message; a 503 always carries Retry-After.
 */
import { STATUS_CODES } from 'node:http';
import { DEFAULTS } from '../defaults.ts';
import { HttpError } from './http-error.ts';

export interface Problem {
  status: number;
  body: { error: string } & Record<string, unknown>;
  headers: Record<string, string>;
}

const INTERNAL_ERROR_MESSAGE = 'internal server error';

/** Turns a foreign error (e.g. a database driver's) into an HttpError, or undefined when it is not one it knows. */
export type ErrorTranslator = (err: unknown) => HttpError | undefined;

const translateNothing: ErrorTranslator = () => undefined;

export function toProblem(err: unknown, translate: ErrorTranslator = translateNothing): Problem {
  const httpError = toHttpError(err, translate);
  if (!httpError) return { status: 500, body: { error: INTERNAL_ERROR_MESSAGE }, headers: {} };
  const { status, expose } = httpError;
  const body = expose
    ? { ...httpError.details, error: httpError.message }
    : { error: status === 500 ? INTERNAL_ERROR_MESSAGE : genericMessage(status) };
  return { status, body, headers: status === 503 ? withRetryAfter(httpError.headers) : { ...httpError.headers } };
}

/** The headers, with `Retry-After` unless they name one (in any letter case). */
export function withRetryAfter(headers: Readonly<Record<string, string>>): Record<string, string> {
  const named = Object.keys(headers).some((name) => name.toLowerCase() === 'retry-after');
  return named ? { ...headers } : { ...headers, 'Retry-After': String(DEFAULTS.retryAfterSeconds) };
}

/** Normalises anything thrown into an HttpError, or undefined for an unknown 500. */
function toHttpError(err: unknown, translate: ErrorTranslator = translateNothing): HttpError | undefined {
  if (err instanceof HttpError) return err;
  const mapped = translate(err);
  if (mapped) return mapped;
  if (typeof err !== 'object' || err === null) return undefined;
  const record = err as Record<string, unknown>;
  const status = record['status'] ?? record['statusCode'];
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 400 || status > 599) return undefined;
  const message = typeof record['message'] === 'string' && record['message'] !== '' ? record['message'] : genericMessage(status);
  const expose = typeof record['expose'] === 'boolean' ? record['expose'] : status < 500;
  return new HttpError(status, message, { expose, headers: stringHeaders(record['headers']), cause: err });
}

function genericMessage(status: number): string {
  return (STATUS_CODES[status] ?? 'error').toLowerCase();
}

function stringHeaders(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (typeof value !== 'object' || value === null) return out;
  for (const [key, header] of Object.entries(value)) {
    if (typeof header === 'string' || typeof header === 'number') out[key] = String(header);
  }
  return out;
}
