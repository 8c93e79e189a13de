/**
 * POSTs a large form body as it is, with Content-Length or chunked (1 MiB writes), on its own connection: the
 * status, or 'reset' when the server closed first (an early 413 may cut the upload). For body-limit tests and the
 * bench's big-forms section.
 */
import http from 'node:http';

export interface FormBodyOptions {
  /** Sent chunked instead of with Content-Length. */
  chunked?: boolean;
  /** More request headers (e.g. authorization). */
  headers?: Record<string, string>;
}

export function postFormBody(url: string, body: Buffer, options: FormBodyOptions = {}): Promise<number | 'reset'> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', ...options.headers };
    if (!options.chunked) headers['content-length'] = String(body.length);
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(res.statusCode ?? 'reset'));
    });
    req.on('error', () => resolve('reset'));
    for (let at = 0; at < body.length; at += 1 << 20) req.write(body.subarray(at, at + (1 << 20)));
    req.end();
  });
}
