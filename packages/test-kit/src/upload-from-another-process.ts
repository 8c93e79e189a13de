/**
 * Uploads a body with fetch (no `Expect: 100-continue`) from a separate Node process, as a real client: in the
 * test's own process an early answer mostly wins the race; from another, a server that closes under the upload
 * shows as EPIPE/ECONNRESET instead of its answer.
 * Usage: await uploadFromAnotherProcess(`${url}/register`, { bytes: 11 * 1024 * 1024, times: 5, contentType })
 */
import { execFile } from 'node:child_process';

export type UploadOutcome = { status: number; body: string; retryAfter: string | null } | { error: string };

export interface UploadOptions {
  /** Size of the body, bytes (the letter `a` repeated). */
  bytes: number;
  /** Uploads, one after the other. */
  times: number;
  contentType: string;
  headers?: Record<string, string>;
}

const CLIENT = `
const [url, bytes, times, headers] = [process.argv[1], Number(process.argv[2]), Number(process.argv[3]), JSON.parse(process.argv[4])];
const body = Buffer.alloc(bytes, 0x61);
const outcomes = [];
for (let i = 0; i < times; i++) {
  try {
    const res = await fetch(url, { method: 'POST', headers, body });
    outcomes.push({ status: res.status, body: await res.text(), retryAfter: res.headers.get('retry-after') });
  } catch (err) {
    outcomes.push({ error: err.cause?.code ?? err.cause?.message ?? String(err) });
  }
}
console.log(JSON.stringify(outcomes));
`;

export function uploadFromAnotherProcess(url: string, options: UploadOptions): Promise<UploadOutcome[]> {
  const headers = { 'content-type': options.contentType, ...options.headers };
  const args = ['--input-type=module', '-e', CLIENT, url, String(options.bytes), String(options.times), JSON.stringify(headers)];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`upload client failed: ${stderr}`, { cause: err }));
      else resolve(JSON.parse(stdout) as UploadOutcome[]);
    });
  });
}
