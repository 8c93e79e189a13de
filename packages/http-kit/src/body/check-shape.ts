/**
 * The `expect` option of readBody: a decoded body of another shape → 400
 * `request entity was unexpected type`.
 */
import { BadRequestError } from '../errors/client-errors.ts';

export type ExpectedShape = 'object' | 'array' | 'string' | 'bytes' | 'any';

const UNEXPECTED_TYPE = 'request entity was unexpected type';

export function checkShape(value: unknown, expect: ExpectedShape): void {
  if (!hasShape(value, expect)) throw new BadRequestError(UNEXPECTED_TYPE);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

function hasShape(value: unknown, expect: ExpectedShape): boolean {
  switch (expect) {
    case 'object': return isPlainObject(value);
    case 'array': return Array.isArray(value);
    case 'string': return typeof value === 'string';
    case 'bytes': return Buffer.isBuffer(value);
    case 'any': return true;
  }
}
