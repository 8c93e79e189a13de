/**
 * HTTP Basic client credentials (RFC 7617, RFC 6749 section 2.3.1).
 *
 * Rules enforced here:
 * - scheme `Basic` (case-insensitive), one space, then strict base64;
 * - the decoded text splits at the first `:`; `id:` gives the secret "";
 * - id and secret are form-urlencoded (RFC 6749 2.3.1: `+` is a space,
 *   `%XX` escapes), as real clients send them: both are decoded;
 * - anything malformed (bad base64, no colon, empty id, bad escapes) →
 *   undefined, which callers answer with invalid_client, never a 500;
 * - the decoded characters are NOT checked here: a well-formed header may
 *   carry credentials outside VSCHAR (RFC 6749 Appendix A), which no client
 *   can have; the caller refuses those as failed authentication, not as a
 *   malformed header (see normalize-client-auth.ts).
 */
export interface BasicCredentials {
  id: string;
  secret: string;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function parseBasic(header: string): BasicCredentials | undefined {
  const match = /^basic ([^ ]+)$/i.exec(header.trim());
  if (!match?.[1] || !BASE64.test(match[1]) || match[1].length % 4 === 1) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  const id = formDecode(decoded.slice(0, colon));
  const secret = formDecode(decoded.slice(colon + 1));
  if (!id || secret === undefined) return undefined;
  return { id, secret };
}

function formDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, '%20'));
  } catch {
    return undefined;
  }
}
