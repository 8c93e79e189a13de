/**
 * What the guard knows about a presented access token, reduced from an
 * RFC 7662 introspection response.
 */
import { splitScopes } from '@heroes/oauth-scopes';

export interface TokenInfo {
  active: boolean;
  /** Granted scopes; empty when the token carries none (it grants nothing). */
  scopes: readonly string[];
  clientId?: string;
  username?: string;
  sub?: string;
  /** Expiry, seconds since the epoch (RFC 7662 `exp`). */
  exp?: number;
  /** The grant the token belongs to (`grant_id`): a revocation notice of that grant evicts it from the cache. */
  grantId?: string;
  /** RFC 7662 `aud` as answered (a string or a list): the resources the token is for. */
  audience?: string | readonly string[];
}

export const INACTIVE: TokenInfo = Object.freeze({ active: false, scopes: Object.freeze([]) });

/**
 * Reduces an introspection response to a TokenInfo.
 * - `active` must be exactly `true`; anything else is inactive.
 * - a token whose `exp` has passed is inactive, whatever `active` says.
 * - only bearer access tokens count: oidc-provider answers `token_type`
 *   "Bearer" for access tokens and omits it for refresh tokens, so a
 *   refresh token presented as a bearer token is inactive here.
 *
 * Usage:
 *   const info = toTokenInfo(await response.json());
 */
export function toTokenInfo(body: unknown, nowSeconds = Date.now() / 1000): TokenInfo {
  if (typeof body !== 'object' || body === null) return INACTIVE;
  const record = body as Record<string, unknown>;
  if (record.active !== true) return INACTIVE;
  const tokenType = record.token_type;
  if (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer') return INACTIVE;
  const exp = typeof record.exp === 'number' ? record.exp : undefined;
  if (exp !== undefined && exp <= nowSeconds) return INACTIVE;
  const scope = typeof record.scope === 'string' ? record.scope : '';
  return {
    active: true,
    scopes: splitScopes(scope),
    clientId: str(record.client_id),
    username: str(record.username),
    sub: str(record.sub),
    exp,
    grantId: str(record.grant_id),
    audience: audienceOf(record.aud),
  };
}

function audienceOf(value: unknown): string | readonly string[] | undefined {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.filter((one): one is string => typeof one === 'string') : undefined;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
