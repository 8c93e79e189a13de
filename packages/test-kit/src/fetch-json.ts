/**
 * The one JSON request helper of the tests: fetch over real sockets, the body read as text and parsed when JSON.
 * Usage: const res = await fetchJson(url, { method: 'POST', json: { name: 'Bob' } }); // or form: {...}
 *        res.status; res.headers; res.body (parsed, or undefined); res.text
 */
export interface JsonResponse<Body = unknown> {
  status: number;
  headers: Headers;
  body: Body;
  text: string;
}

export interface JsonRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Sent as application/json (unless a content-type is given). */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded (unless a content-type is given). */
  form?: Record<string, string>;
  redirect?: 'manual' | 'follow' | 'error';
  /** Aborts the request (e.g. `AbortSignal.timeout(60_000)`: a hung server fails the test instead of stalling it). */
  signal?: AbortSignal;
}

export async function fetchJson<Body = unknown>(url: string, init: JsonRequest = {}): Promise<JsonResponse<Body>> {
  const headers: Record<string, string> = { ...init.headers };
  let body: string | Buffer | undefined = init.body;
  if (init.json !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = JSON.stringify(init.json);
  } else if (init.form !== undefined) {
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
    body = new URLSearchParams(init.form).toString();
  }
  const method = init.method ?? (body === undefined ? 'GET' : 'POST');
  const response = await fetch(url, { method, headers, body, redirect: init.redirect ?? 'manual', ...(init.signal ? { signal: init.signal } : {}) });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, body: parsed as Body, text };
}
