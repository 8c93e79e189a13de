/**
 * The character set of OAuth client credentials (RFC 6749 Appendix A.1 and
 * A.2): `client-id = *VSCHAR`, `client-secret = *VSCHAR`, with
 * VSCHAR = %x20-7E (printable ASCII, space included).
 *
 * The one definition in the package: the CLI refuses to register anything
 * else, and the server refuses to authenticate anything else (HTTP Basic
 * and form body alike) without touching the database or the slow hash.
 */
const VSCHAR = /^[\x20-\x7E]*$/;

/** True when every character of `value` is a VSCHAR. Usage: `isVschar('s3cr3t:+/%')` → true */
export function isVschar(value: string): boolean {
  return VSCHAR.test(value);
}
