/**
 * Text PostgreSQL can take and that compares as the client meant: no NUL (text cannot hold it: the query would fail)
 * and no lone surrogate (the driver would send U+FFFD and find another row). The one definition: every user string
 * that could reach a query is checked with it first, and treated as not found or refused.
 */
import { isWellFormedText } from '@heroes/http-kit';

const NUL = '\u0000';

/** True when `value` has no NUL and no lone surrogate. Usage: `isStorableText('a\u0000b')` → false */
export function isStorableText(value: string): boolean {
  return !value.includes(NUL) && isWellFormedText(value);
}
