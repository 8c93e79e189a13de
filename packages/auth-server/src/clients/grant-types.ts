/**
 * The grant types a client may use at /auth/token (docs/oauth.md, "Grant types per client"): password,
 * authorization_code, refresh_token, client_credentials. None registered → its kind's default (secret: password, code,
 * refresh; public: password, code; the built-in browser client: code only, RFC 9700 section 2.4). A public client
 * never gets refresh_token or client_credentials (RFC 6749 section 4.4).
 */
import { APP_CLIENT_ID } from '@heroes/oauth-scopes';
import { invalidInput } from './client-registry-error.ts';

export const GRANT_TYPES = ['password', 'authorization_code', 'refresh_token', 'client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/** The grants a public client can never use. */
const CONFIDENTIAL_ONLY: ReadonlySet<string> = new Set(['refresh_token', 'client_credentials']);

export interface GrantTypeSubject {
  /** The client's id (the built-in browser client has its own default). */
  id?: string;
  /** As registered; empty: the default applies. */
  registered: readonly string[];
  /** True when the client has a secret. */
  confidential: boolean;
}

/** The grant types a client registered without any may use. */
function defaultGrantTypes({ id, confidential }: Omit<GrantTypeSubject, 'registered'>): GrantType[] {
  if (id === APP_CLIENT_ID) return confidential ? ['authorization_code', 'refresh_token'] : ['authorization_code'];
  return confidential ? ['password', 'authorization_code', 'refresh_token'] : ['password', 'authorization_code'];
}

/** What applies: the registered grant types that the client's kind allows, or the default. */
export function effectiveGrantTypes(subject: GrantTypeSubject): GrantType[] {
  if (subject.registered.length === 0) return defaultGrantTypes(subject);
  // A stored value the client can no longer use (a public client's refresh_token) is never served.
  return GRANT_TYPES.filter((grant) => subject.registered.includes(grant) && (subject.confidential || !CONFIDENTIAL_ONLY.has(grant)));
}

/**
 * A space-separated list (or split values) as stored: known values only,
 * each once, in the canonical order. "" → [] (the default applies).
 */
export function parseGrantTypes(list: string | readonly string[]): GrantType[] {
  const values = typeof list === 'string' ? list.split(' ').filter((value) => value !== '') : list;
  const unknown = values.filter((value) => !(GRANT_TYPES as readonly string[]).includes(value));
  if (unknown.length > 0) {
    const shown = unknown.slice(0, 3).map((value) => `'${printable(value)}'`).join(', ');
    throw invalidInput(`Unknown grant type ${shown}: choose from ${GRANT_TYPES.join(', ')}.`);
  }
  return GRANT_TYPES.filter((grant) => values.includes(grant));
}

/** Throws unless a client of this kind may use every one of `grantTypes`. */
export function checkGrantTypesForKind(grantTypes: readonly string[], confidential: boolean): void {
  if (confidential) return;
  const refused = grantTypes.filter((grant) => CONFIDENTIAL_ONLY.has(grant));
  if (refused.length > 0) {
    throw invalidInput(`A public client (no secret) cannot use ${refused.join(' or ')}: give it a secret (--secret, --generate-secret, or rotate-secret --make-confidential) first.`);
  }
}

function printable(value: string): string {
  const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
  return shown.replace(/[^\x20-\x7e…]/g, '?');
}
