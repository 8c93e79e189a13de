/** Small fetch helpers for seeding (not for measuring: that is autocannon's job). */

export function basic(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

export function post(url: string, headers: Record<string, string>, body: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body });
}

export async function expectOk(res: Response, what: string): Promise<unknown> {
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${what} failed: ${res.status} ${text}`);
  return JSON.parse(text);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
