/**
 * Step of readBody after a codec decoded the body: every string in the value (keys included) must be well-formed
 * Unicode. A lone surrogate → 400 `request entity could not be decoded` (it has no UTF-8 form, so it would be stored
 * altered or fail in the driver); U+0000 passes (whether a value may hold it is the application's rule). The walk
 * is iterative: deep JSON cannot overflow the stack.
 */
import { BadRequestError } from '../errors/client-errors.ts';
import type { HttpError } from '../errors/http-error.ts';

export const UNDECODABLE = 'request entity could not be decoded';

export function assertWellFormed(value: unknown): void {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (!isWellFormedText(item)) throw notWellFormed();
      continue;
    }
    if (typeof item !== 'object' || item === null || ArrayBuffer.isView(item) || seen.has(item)) continue;
    seen.add(item);
    if (Array.isArray(item)) {
      for (const child of item) pending.push(child);
      continue;
    }
    for (const [key, child] of Object.entries(item)) {
      if (!isWellFormedText(key)) throw notWellFormed();
      pending.push(child);
    }
  }
}

/**
 * True when `text` is well-formed UTF-16 (no lone surrogate), the one
 * check of it in the repository. String.prototype.isWellFormed (ES2024;
 * Node ≥ 20) is not in the ES2023 lib the repo compiles against.
 *
 * Usage: `isWellFormedText('\uD800')` → false
 */
export function isWellFormedText(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

function notWellFormed(): HttpError {
  return new BadRequestError(UNDECODABLE, { code: 'undecodable_entity' });
}
