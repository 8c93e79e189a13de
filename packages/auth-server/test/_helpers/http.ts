/**
 * OAuth request helpers over the shared fetchJson (real sockets).
 */
import { basic, fetchJson, type JsonRequest, type JsonResponse as KitResponse } from '@heroes/test-kit';
import { RESOURCE_SERVER_CLIENT } from './fixtures.ts';

/** `Authorization: Basic` for a client id and secret (RFC 6749 section 2.3.1), from the shared test kit. */
export { basic };

/** A Basic header around any decoded text, also malformed ones (no colon, ...). */
export function basicHeader(decoded: string): string {
  return `Basic ${Buffer.from(decoded, 'utf8').toString('base64')}`;
}

/** An answer whose body is the JSON object sent, or {} when it sent none. */
export type JsonResponse = KitResponse<Record<string, unknown>>;

/** Any request, the answer's body read as a JSON object ({} when it is not one). */
export async function requestJson(url: string, init: JsonRequest = {}): Promise<JsonResponse> {
  const res = await fetchJson<Record<string, unknown> | undefined>(url, init);
  const body = res.body !== null && typeof res.body === 'object' ? res.body : {};
  return { ...res, body };
}

export function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<JsonResponse> {
  return requestJson(url, { method: 'POST', form, headers });
}

/** POST /auth/token with the password grant. */
export function passwordGrant(base: string, authorization: string | undefined, form: Record<string, string>): Promise<JsonResponse> {
  return postForm(`${base}/auth/token`, { grant_type: 'password', ...form }, authorization ? { authorization } : {});
}

/** POST /auth/introspect as the resource server's client (RESOURCE_SERVER_CLIENT, which the test registers). */
export function introspectAsResourceServer(base: string, token: string): Promise<JsonResponse> {
  return postForm(`${base}/auth/introspect`, { token }, { authorization: basic(RESOURCE_SERVER_CLIENT.id, RESOURCE_SERVER_CLIENT.secret) });
}
