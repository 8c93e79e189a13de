/** Small fetch helpers for seeding (not for measuring: that is autocannon's job). */

/** `Authorization: Basic` for a client: the test kit's, the one encoding the servers expect (RFC 6749 section 2.3.1). */
export { basic } from '@heroes/test-kit';

export function post(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body });
}

export async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${text}`);
  return JSON.parse(text);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
