/**
 * 400 `{"error":"entity validation failed","reasons":[...]}`: the shape
 * http-kit's key filters use (Aqueduct's Serializable.read), for the checks
 * a route makes on values after the keys passed.
 */
import { BadRequestError, type HttpError } from '@heroes/http-kit';

export const VALIDATION_FAILED = 'entity validation failed';

/**
 * Usage:
 *   throw validationFailed(`invalid input value for 'name'`);
 */
export function validationFailed(...reasons: string[]): HttpError {
  return new BadRequestError(VALIDATION_FAILED, { code: 'entity_validation_failed', details: { reasons } });
}

/** Aqueduct's wording for a value of the wrong type. */
export function invalidValue(key: string): HttpError {
  return validationFailed(`invalid input value for '${key}'`);
}

/** Keys of `body` outside `known`, for filterKeys' `reject` list. */
export function unknownKeys(body: Record<string, unknown>, known: readonly string[]): string[] {
  return Object.keys(body).filter((key) => !known.includes(key));
}
