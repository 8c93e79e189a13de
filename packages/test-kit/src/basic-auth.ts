/**
 * `Authorization: Basic ...` for an OAuth client (RFC 6749 section 2.3.1):
 * the client id and secret are each application/x-www-form-urlencoded
 * (a space becomes `+`), then joined by `:` and base64-encoded (RFC 7617),
 * as the resource server and openid-client send them. The one Basic helper
 * of the tests; a deliberately malformed header is built by hand.
 *
 * Usage: `headers: { authorization: basic('web', 'web secret') }`
 */
export function basic(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}
