/**
 * HTTP Basic client credentials (RFC 7617, RFC 6749 section 2.3.1): `Basic` (any case), one space, strict base64,
 * split at the first `:`, both parts form-urldecoded; anything malformed → undefined (invalid_client, never a 500).
 * The characters are not checked here: normalize-client-auth.ts refuses non-VSCHAR ones as a failed authentication.
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
