/**
 * The character set of OAuth client credentials (RFC 6749 Appendix A.1, A.2): VSCHAR = %x20-7E. The one definition:
 * the CLI registers nothing else and the server refuses anything else without touching the database or the hash.
 */
const VSCHAR = /^[\x20-\x7E]*$/;

/** True when every character of `value` is a VSCHAR. Usage: `isVschar('s3cr3t:+/%')` → true */
export function isVschar(value: string): boolean {
  return VSCHAR.test(value);
}
