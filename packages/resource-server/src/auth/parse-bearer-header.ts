/**
 * Authorization header → bearer token (RFC 6750 section 2.1).
 * - absent header → `undefined` (the guard answers 401 without an error code).
 * - the scheme is matched case-insensitively (RFC 9110 section 11.1).
 * - exactly one space-separated credential in b64token syntax
 *   (`[A-Za-z0-9-._~+/]+=*`); anything else, including another scheme such
 *   as Basic, is malformed → MalformedAuthorizationError (400).
 */
export class MalformedAuthorizationError extends Error {
  constructor() {
    super('invalid_authorization_header');
    this.name = 'MalformedAuthorizationError';
  }
}

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Usage:
 *   const token = parseBearerHeader(ctx.get('authorization') || undefined);
 */
export function parseBearerHeader(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = BEARER.exec(header);
  if (!match?.[1]) throw new MalformedAuthorizationError();
  return match[1];
}
