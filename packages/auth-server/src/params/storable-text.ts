/**
 * Text that PostgreSQL can take as a query parameter, and that compares as
 * the client meant it.
 *
 * Rules enforced here:
 * - no NUL (U+0000): PostgreSQL text cannot hold it, and the query fails
 *   ("invalid byte sequence for encoding UTF8: 0x00"), a 500;
 * - no lone UTF-16 surrogate: it has no UTF-8 form, so the driver would
 *   send U+FFFD instead and `a\uD800` would find the row of `a\uFFFD`
 *   (and jsonb refuses it outright).
 *
 * The one definition in the package: every user-supplied string that could
 * reach a query (username, password, the parameters of /auth/code, record
 * ids) is checked with it first, and treated as "not found" or refused.
 */
import { isWellFormedText } from '@heroes/http-kit';

const NUL = '\u0000';

/** True when `value` has no NUL and no lone surrogate. Usage: `isStorableText('a\u0000b')` → false */
export function isStorableText(value: string): boolean {
  return !value.includes(NUL) && isWellFormedText(value);
}
