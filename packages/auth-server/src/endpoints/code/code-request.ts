/**
 * The parameters of GET and POST /auth/code: each a single string (a repeat is refused, RFC 6749 section 3.1), empty
 * counts as absent, at most MAX_PARAMETER_LENGTHS (they end up in Location or stored records); an OAuth parameter with
 * a NUL or lone surrogate is refused, while bad credentials are left to the authenticator (a failed login).
 */
import { MAX_CLIENT_ID_LENGTH } from '../../clients/client-id.ts';
import { MAX_REDIRECT_URI_LENGTH } from '../../clients/redirect-uri.ts';
import { isStorableText } from '../../params/storable-text.ts';

export interface CodeRequest {
  clientId?: string;
  redirectUri?: string;
  responseType?: string;
  state?: string;
  scope?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  nonce?: string;
  /** RFC 8707: the protected resource the token is for. */
  resource?: string;
  /** RFC 9449 section 10: the thumbprint of the DPoP key the code's exchange must prove. */
  dpopJkt?: string;
  username?: string;
  password?: string;
}

const NAMES = {
  clientId: 'client_id',
  redirectUri: 'redirect_uri',
  responseType: 'response_type',
  state: 'state',
  scope: 'scope',
  codeChallenge: 'code_challenge',
  codeChallengeMethod: 'code_challenge_method',
  nonce: 'nonce',
  resource: 'resource',
  dpopJkt: 'dpop_jkt',
  username: 'username',
  password: 'password',
} as const satisfies Record<keyof CodeRequest, string>;

/**
 * The longest value, in characters, of each /auth/code parameter. The 302
 * Location carries redirect_uri and state (percent-encoded: up to 3 bytes
 * per character), which keeps it well under an 8 KB header limit.
 */
export const MAX_PARAMETER_LENGTHS: Readonly<Record<keyof CodeRequest, number>> = Object.freeze({
  clientId: MAX_CLIENT_ID_LENGTH,
  redirectUri: MAX_REDIRECT_URI_LENGTH,
  responseType: 64,
  state: 1024,
  scope: 2048,
  codeChallenge: 128, // RFC 7636 4.1
  codeChallengeMethod: 64,
  nonce: 1024,
  resource: MAX_REDIRECT_URI_LENGTH,
  dpopJkt: 128,
  username: 1024,
  password: 1024,
});

export type ParseResult =
  | { ok: true; request: CodeRequest }
  | { ok: false; parameter: string; problem: 'repeated' | 'invalid characters' | 'too long'; max?: number };

const CREDENTIALS: ReadonlySet<string> = new Set([NAMES.username, NAMES.password]);

export function parseCodeRequest(source: Record<string, unknown>): ParseResult {
  const request: CodeRequest = {};
  for (const [key, name] of Object.entries(NAMES) as [keyof CodeRequest, string][]) {
    const value = source[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') return { ok: false, parameter: name, problem: 'repeated' };
    if (value.length > MAX_PARAMETER_LENGTHS[key]) return { ok: false, parameter: name, problem: 'too long', max: MAX_PARAMETER_LENGTHS[key] };
    if (!CREDENTIALS.has(name) && !isStorableText(value)) return { ok: false, parameter: name, problem: 'invalid characters' };
    request[key] = value;
  }
  return { ok: true, request };
}

/** The OAuth parameters carried through the login form (no credentials). */
export function oauthParams(request: CodeRequest): [string, string][] {
  const out: [string, string][] = [];
  for (const key of ['clientId', 'redirectUri', 'responseType', 'state', 'scope', 'codeChallenge', 'codeChallengeMethod', 'nonce', 'resource', 'dpopJkt'] as const) {
    const value = request[key];
    if (value !== undefined) out.push([NAMES[key], value]);
  }
  return out;
}
