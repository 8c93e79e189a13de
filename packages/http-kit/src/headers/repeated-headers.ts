/**
 * Request headers that must appear at most once (docs/http.md): two copies are two readings of one request
 * (RFC 9110 section 5.3; RFC 9112 section 3.2 for Host). Node keeps only the first in `req.headers`, so they are
 * counted in `req.rawHeaders`.
 */
export const SINGLE_VALUED_HEADERS = ['Host', 'Content-Length', 'Content-Type', 'Authorization'] as const;

const BY_LOWER_NAME = new Map<string, (typeof SINGLE_VALUED_HEADERS)[number]>(SINGLE_VALUED_HEADERS.map((name) => [name.toLowerCase(), name]));
const LENGTHS = new Set(SINGLE_VALUED_HEADERS.map((name) => name.length));

/**
 * The first single-valued header that `rawHeaders` (name, value, name, value…)
 * holds more than once, as SINGLE_VALUED_HEADERS spells it; undefined when none.
 *
 * Usage: `const name = repeatedSingleValuedHeader(req.rawHeaders); if (name) refuse(400, \`repeated ${name} header\`)`
 */
export function repeatedSingleValuedHeader(rawHeaders: readonly string[]): string | undefined {
  let seen: string[] | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const raw = rawHeaders[i]!;
    // Most headers differ in length from all four: no lower-casing for them.
    if (!LENGTHS.has(raw.length)) continue;
    const name = BY_LOWER_NAME.get(raw.toLowerCase());
    if (name === undefined) continue;
    if (seen?.includes(name)) return name;
    (seen ??= []).push(name);
  }
  return undefined;
}
