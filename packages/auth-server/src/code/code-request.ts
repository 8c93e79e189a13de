/**
 * The parameters of GET and POST /auth/code (query string for GET, form
 * body for POST).
 *
 * Rules enforced here:
 * - every parameter is a single string: a repeated one is rejected
 *   (RFC 6749 section 3.1: "MUST NOT be included more than once");
 * - empty values count as absent;
 * - an OAuth parameter with a NUL or a lone surrogate is refused
 *   (params/storable-text.ts: nonce is stored with the code, and none of
 *   them can be a valid value); username and password are left to the
 *   authenticator, which makes them a failed login (the form again).
 */
import { isStorableText } from '../params/storable-text.ts';

export interface CodeRequest {
  clientId?: string;
  redirectUri?: string;
  responseType?: string;
  state?: string;
  scope?: string;
  codeChallenge?: string;
  codeChallengeMethod?: string;
  nonce?: string;
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
  username: 'username',
  password: 'password',
} as const satisfies Record<keyof CodeRequest, string>;

export type ParseResult =
  | { ok: true; request: CodeRequest }
  | { ok: false; parameter: string; problem: 'repeated' | 'invalid characters' };

const CREDENTIALS: ReadonlySet<string> = new Set([NAMES.username, NAMES.password]);

export function parseCodeRequest(source: Record<string, unknown>): ParseResult {
  const request: CodeRequest = {};
  for (const [key, name] of Object.entries(NAMES) as [keyof CodeRequest, string][]) {
    const value = source[name];
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') return { ok: false, parameter: name, problem: 'repeated' };
    if (!CREDENTIALS.has(name) && !isStorableText(value)) return { ok: false, parameter: name, problem: 'invalid characters' };
    request[key] = value;
  }
  return { ok: true, request };
}

/** The OAuth parameters carried through the login form (no credentials). */
export function oauthParams(request: CodeRequest): [string, string][] {
  const out: [string, string][] = [];
  for (const key of ['clientId', 'redirectUri', 'responseType', 'state', 'scope', 'codeChallenge', 'codeChallengeMethod', 'nonce'] as const) {
    const value = request[key];
    if (value !== undefined) out.push([NAMES[key], value]);
  }
  return out;
}
