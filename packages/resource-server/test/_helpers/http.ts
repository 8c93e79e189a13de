/** Small fetch wrappers for tests. */
export interface JsonResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

export async function request(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string | Buffer; json?: unknown; redirect?: 'manual' | 'follow' | 'error' } = {},
): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | Buffer | undefined = init.body;
  if (init.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(init.json);
  }
  const response = await fetch(url, { method: init.method ?? 'GET', headers, body, redirect: init.redirect ?? 'manual' });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed, text };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
