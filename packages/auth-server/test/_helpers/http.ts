/**
 * Small HTTP helpers over fetch (real sockets).
 */
/** `Authorization: Basic base64(id:secret)` (RFC 7617). */
export function basic(id: string, secret: string): string {
  return basicHeader(`${id}:${secret}`);
}

/** A Basic header around any decoded text, also malformed ones (no colon, ...). */
export function basicHeader(decoded: string): string {
  return `Basic ${Buffer.from(decoded, 'utf8').toString('base64')}`;
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

export async function postForm(url: string, form: Record<string, string>, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: 'manual',
  });
  return toJson(response);
}

export async function toJson(response: Response): Promise<JsonResponse> {
  const text = await response.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    body = {};
  }
  return { status: response.status, headers: response.headers, body, text };
}

/** POST /auth/token with the password grant. */
export function passwordGrant(base: string, authorization: string | undefined, form: Record<string, string>): Promise<JsonResponse> {
  return postForm(`${base}/auth/token`, { grant_type: 'password', ...form }, authorization ? { authorization } : {});
}
