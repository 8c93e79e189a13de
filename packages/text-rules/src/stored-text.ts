/**
 * The one text rule for every string the service stores: hero names,
 * usernames, client ids, redirect URIs (docs/http.md, "Text rule").
 * Each check answers why a value breaks the rule, or undefined when it
 * keeps it; callers put the field name in front: `'name' must not …`.
 */

/** C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F): general category Cc (CWE-150). */
const CONTROL = /\p{Cc}/u;
/** A UTF-16 surrogate not paired with its other half: no UTF-8 form, so PostgreSQL cannot store it. */
const LONE_SURROGATE = /\p{Cs}/u;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;
/** Variation selectors: they pick a glyph of the character before them (text or emoji style). */
const VARIATION_SELECTOR = /^[\u180B-\u180D\u180F\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u;
const ZWNJ = '\u200C';
const ZWJ = '\u200D';
/** What a joiner may stand after inside an emoji sequence (RFC-less: Unicode TS #51, emoji ZWJ sequences). */
const EMOJI_BEFORE_JOINER = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]$/u;
const EMOJI_AFTER_JOINER = /^\p{Extended_Pictographic}/u;
/** Letters and marks of the scripts whose shaping joiners control (Arabic, Persian, the Indic scripts, ...). */
const SHAPED = /^[\p{L}\p{M}]$/u;
const UNSHAPED_SCRIPT = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Common}\p{Script=Inherited}]$/u;

/**
 * Display text (hero names): no Cc, no lone surrogate, and no
 * default-ignorable code point where it would change what the text means
 * while looking the same (`Nar\u200Bco` beside `Narco`). Kept where they
 * only shape what is visible: a variation selector right after a visible
 * character, a zero-width joiner inside an emoji sequence, a zero-width
 * (non-)joiner between letters of a script shaped by them (Persian
 * `می‌خواهم`).
 *
 * Usage: `textProblem('Evil\u009b[2J')` → `'must not contain control characters'`
 */
export function textProblem(value: string): string | undefined {
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired surrogates';
  if (CONTROL.test(value)) return 'must not contain control characters';
  for (const match of value.matchAll(IGNORABLE)) {
    if (!shapesVisibleText(value, match[0], match.index)) return `must not contain invisible characters (${codePoint(match[0])})`;
  }
  return undefined;
}

/**
 * Identifiers (usernames, client ids, redirect URIs): the text rule, and no
 * format character (Cf), default-ignorable, private-use or unassigned code
 * point anywhere: an identifier is compared, never shaped.
 *
 * Usage: `identifierProblem('ali\u200Bce')` → `'must not contain invisible characters (U+200B)'`
 */
export function identifierProblem(value: string): string | undefined {
  if (LONE_SURROGATE.test(value)) return 'must not contain unpaired surrogates';
  if (CONTROL.test(value)) return 'must not contain control characters';
  const invisible = /[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.exec(value);
  if (invisible) return `must not contain invisible characters (${codePoint(invisible[0])})`;
  const unknown = /[\p{Co}\p{Cn}]/u.exec(value);
  if (unknown) return `must not contain private-use or unassigned characters (${codePoint(unknown[0])})`;
  return undefined;
}

/** `U+200B`, for messages: the character itself would be invisible. */
export function codePoint(character: string): string {
  return `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

function shapesVisibleText(value: string, ignorable: string, index: number): boolean {
  const before = characterBefore(value, index);
  const after = characterAt(value, index + ignorable.length);
  if (before === undefined) return false;
  if (ignorable === ZWJ && after !== undefined && EMOJI_BEFORE_JOINER.test(before) && EMOJI_AFTER_JOINER.test(after)) return true;
  if (IGNORABLE_ONE.test(before)) return false;
  if (VARIATION_SELECTOR.test(ignorable)) return /\S/u.test(before);
  if (ignorable !== ZWJ && ignorable !== ZWNJ) return false;
  return after !== undefined && isShaped(before) && isShaped(after);
}

const IGNORABLE_ONE = /^\p{Default_Ignorable_Code_Point}$/u;

function isShaped(character: string): boolean {
  return SHAPED.test(character) && !UNSHAPED_SCRIPT.test(character);
}

/** The code point that ends at UTF-16 offset `end`, or undefined at the start. */
function characterBefore(value: string, end: number): string | undefined {
  if (end <= 0) return undefined;
  const low = value.charCodeAt(end - 1);
  const paired = end >= 2 && low >= 0xdc00 && low <= 0xdfff && value.charCodeAt(end - 2) >= 0xd800 && value.charCodeAt(end - 2) <= 0xdbff;
  return value.slice(paired ? end - 2 : end - 1, end);
}

/** The code point that starts at UTF-16 offset `start`, or undefined at the end. */
function characterAt(value: string, start: number): string | undefined {
  const code = value.codePointAt(start);
  return code === undefined ? undefined : String.fromCodePoint(code);
}
