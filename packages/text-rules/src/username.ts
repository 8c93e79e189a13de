/**
 * The one identifier rule for usernames: RFC 8265 section 3.3 (UsernameCaseMapped) and a UTS #39 confusable check.
 * The stored name keeps what the user typed; uniqueness and sign-in use its key, and a new name may not share an
 * existing name's skeleton (docs/oauth.md, "Usernames").
 */
import unhomoglyph from 'unhomoglyph';
import { identifierProblem } from './stored-text.ts';

export type PreparedUsername =
  | { ok: true; key: string; skeleton: string }
  | { ok: false; problem: string };

/** Fullwidth and halfwidth forms, and the ideographic space: RFC 8265 3.3.1 width mapping. */
const WIDE_OR_NARROW = /[\u3000\uFF01-\uFFEE]/gu;

/**
 * Checks a username as typed and returns its key (the form compared:
 * width-mapped, lower-cased, NFC) and the key's confusable skeleton, or
 * why it cannot be a username (a phrase after `'username' `).
 *
 * Rules (RFC 8265 sections 3.3-3.4, in its order): fullwidth and
 * halfwidth characters map to their usual width; upper and title case map
 * to lower case (toLowerCase); NFC. The result must not be empty, must not
 * start or end with a space, holds words separated by single spaces (no
 * other white space), and no control, format (Cf), default-ignorable,
 * private-use or unassigned code point (@heroes/text-rules identifierProblem).
 *
 * Usage: `prepareUsername('Ａlice')` → `{ ok: true, key: 'alice', skeleton: 'alice' }`
 */
export function prepareUsername(typed: string): PreparedUsername {
  const key = usernameKeyOf(typed);
  const problem = keyProblem(typed, key);
  return problem === undefined ? { ok: true, key, skeleton: confusableSkeleton(key) } : { ok: false, problem };
}

/**
 * The key a sign-in looks the account up by, or undefined when `typed`
 * could not be any account's name (then no account is read).
 *
 * Usage: `usernameKey('Alice')` → `'alice'`; `usernameKey(' alice')` → undefined
 */
export function usernameKey(typed: string): string | undefined {
  const key = usernameKeyOf(typed);
  return keyProblem(typed, key) === undefined ? key : undefined;
}

/**
 * UTS #39 section 4 skeleton: NFD, each character replaced by its
 * prototype in Unicode's confusables.txt (the data of the `unhomoglyph`
 * package), NFD again. Two strings with one skeleton look alike
 * (`аlice` with a Cyrillic а, `alice`). Not for display.
 *
 * Usage: `confusableSkeleton('pаypal')` → `'paypal'`
 */
export function confusableSkeleton(text: string): string {
  return unhomoglyph(text.normalize('NFD')).normalize('NFD');
}

function usernameKeyOf(typed: string): string {
  // Lone surrogates stay as they are (identifierProblem refuses them); the mappings never create one.
  return typed.replace(WIDE_OR_NARROW, (character) => character.normalize('NFKC')).toLowerCase().normalize('NFC');
}

function keyProblem(typed: string, key: string): string | undefined {
  const problem = identifierProblem(typed) ?? identifierProblem(key);
  if (problem !== undefined) return problem;
  if (key.length === 0) return 'must not be empty';
  if (/^\s|\s$/u.test(key)) return 'must not start or end with a space';
  if (/[^\S ]/u.test(key)) return 'must not contain tabs, line breaks or spaces other than a plain space';
  if (key.includes('  ')) return 'must not contain two spaces in a row';
  return undefined;
}
