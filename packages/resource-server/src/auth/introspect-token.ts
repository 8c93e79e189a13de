/**
 * One RFC 7662 introspection call: POST `/auth/introspect` with `token_type_hint=access_token`, Basic with the
 * resource server's own credentials (form-urlencoded first, RFC 6749 section 2.3.1), keep-alive. A 400 JSON means
 * the token is what is refused → inactive (401 invalid_token), not an outage; unreachable, over `timeoutMs` or any
 * other answer → IntrospectionUnavailableError (the guard's 503), with the upstream status when there was one.
 */
import { INACTIVE, toTokenInfo, type TokenInfo } from './token-info.ts';
import { currentRequestId } from '@heroes/platform';

export interface IntrospectOptions {
  authServerUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
}

export type IntrospectToken = (token: string) => Promise<TokenInfo>;

export class IntrospectionUnavailableError extends Error {
  /** The authorization server's HTTP status, when it answered at all. */
  readonly status?: number;

  constructor(message: string, options?: { cause?: unknown; status?: number }) {
    super(message, options);
    this.name = 'IntrospectionUnavailableError';
    if (options?.status !== undefined) this.status = options.status;
  }
}

/**
 * Usage:
 *   const introspect = createIntrospector({ authServerUrl, clientId, clientSecret, timeoutMs: 5000 });
 *   const info = await introspect(token);
 */
export function createIntrospector(options: IntrospectOptions): IntrospectToken {
  const url = `${options.authServerUrl}/auth/introspect`;
  const authorization = basicAuthorization(options.clientId, options.clientSecret);
  return async function introspectToken(token) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          // The request this lookup serves, so both servers' log lines join.
          ...requestIdHeader(),
        },
        body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (cause) {
      throw new IntrospectionUnavailableError('authorization server unreachable', { cause });
    }
    let body: unknown;
    try {
      body = await response.json();
    } catch (cause) {
      throw new IntrospectionUnavailableError(`introspection answered ${response.status} without JSON`, { cause, status: response.status });
    }
    if (response.status === 400) return INACTIVE;
    if (response.status !== 200) {
      throw new IntrospectionUnavailableError(`introspection answered ${response.status}`, { cause: body, status: response.status });
    }
    return toTokenInfo(body);
  };
}

/** `Basic base64(urlencode(id):urlencode(secret))`, RFC 6749 section 2.3.1. */
export function basicAuthorization(id: string, secret: string): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;
}

function requestIdHeader(): Record<string, string> {
  const id = currentRequestId();
  return id ? { 'x-request-id': id } : {};
}
