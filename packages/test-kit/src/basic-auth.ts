/**
 * `Authorization: Basic` for an OAuth client (RFC 6749 section 2.3.1): id and secret each form-urlencoded, joined
 * by `:`, base64 (RFC 7617), as the resource server and openid-client send them. The one Basic helper of the tests;
 * a deliberately malformed header is built by hand.
 */
export function basic(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}
