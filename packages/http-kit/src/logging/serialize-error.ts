/**
 * pino serializer for `err`, what is safe to log about an error: `type`, `message`, `stack`, `code` and the other
 * plain scalars, `cause` by the same rules (5 levels). Dropped: payload and configuration fields (`rawPacket`, which
 * may hold an authorization code, `data`, `body`, `config`, `req`, ...) and any buffer; `headers` without
 * authorization, proxy-authorization, cookie and set-cookie.
 */
const DROPPED = new Set(['rawpacket', 'data', 'body', 'buffer', 'config', 'options', 'request', 'response', 'req', 'res', 'socket']);
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);
const MAX_DEPTH = 5;

export type SerializedError = Record<string, unknown>;

export function serializeError(err: unknown): unknown {
  return serialize(err, 0);
}

function serialize(err: unknown, depth: number): unknown {
  if (typeof err !== 'object' || err === null) return err;
  if (ArrayBuffer.isView(err)) return undefined;
  const source = err as Record<string, unknown>;
  const out: SerializedError = {};
  if (err instanceof Error) {
    out['type'] = err.constructor?.name ?? err.name;
    out['message'] = err.message;
    out['stack'] = err.stack;
  }
  for (const [key, value] of Object.entries(source)) {
    if (DROPPED.has(key.toLowerCase()) || key in out) continue;
    if (key === 'headers') out[key] = safeHeaders(value);
    else if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
  }
  const cause = (err as { cause?: unknown }).cause;
  if (cause !== undefined && depth < MAX_DEPTH) out['cause'] = serialize(cause, depth + 1);
  return out;
}

function safeHeaders(value: unknown): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Record<string, unknown> = {};
  for (const [name, header] of Object.entries(value)) {
    if (SECRET_HEADERS.has(name.toLowerCase())) continue;
    if (typeof header === 'string' || typeof header === 'number') out[name] = header;
    else if (Array.isArray(header)) out[name] = header.filter((item) => typeof item === 'string');
  }
  return out;
}
