/**
 * Authorization header → access token and scheme, `Bearer` (RFC 6750 section 2.1) or `DPoP` (RFC 9449 section
 * 7.1): absent → undefined (401 without error code); scheme case-insensitive; exactly one b64token credential,
 * else (another scheme such as Basic included) MalformedAuthorizationError (400).
 */
export class MalformedAuthorizationError extends Error {
  constructor() {
    super('invalid_authorization_header');
    this.name = 'MalformedAuthorizationError';
  }
}

const CREDENTIALS = /^(Bearer|DPoP) +([A-Za-z0-9\-._~+/]+=*) *$/i;

export interface AccessTokenCredentials {
  scheme: 'bearer' | 'dpop';
  token: string;
}

/**
 * Usage:
 *   const credentials = parseAccessTokenHeader(ctx.get('authorization') || undefined); // { scheme, token } | undefined
 */
export function parseAccessTokenHeader(header: string | undefined): AccessTokenCredentials | undefined {
  if (header === undefined) return undefined;
  const match = CREDENTIALS.exec(header);
  if (!match?.[1] || !match[2]) throw new MalformedAuthorizationError();
  return { scheme: match[1].toLowerCase() === 'dpop' ? 'dpop' : 'bearer', token: match[2] };
}
