/**
 * Parsers of environment-variable text for every settings table (define-settings.ts): each takes the raw text
 * (never empty: empty is unset) and returns the value or throws an EnvValueError completing "<NAME> must be …".
 * Usage: parsePort('8888'); integer({ min: 4, max: 31 })('12')
 */
import net from 'node:net';

/** A value that does not parse; the message is what the value must be. */
export class EnvValueError extends Error {
  override name = 'EnvValueError';
}

export type EnvParser<T> = (raw: string) => T;

/** Decimal digits only (no sign, exponent, hex or blanks), between `min` and `max`. */
export function integer({ min = 0, max = Number.MAX_SAFE_INTEGER }: { min?: number; max?: number } = {}): EnvParser<number> {
  return (raw) => {
    const value = /^\d{1,16}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < min || value > max) {
      throw new EnvValueError(`an integer from ${min} to ${max}`);
    }
    return value;
  };
}

/** A TCP port, 0 to 65535 (0: any free port). */
export const parsePort: EnvParser<number> = integer({ min: 0, max: 65_535 });

/** 1/true/yes/on or 0/false/no/off, any case. */
export const parseBoolean: EnvParser<boolean> = (raw) => {
  const value = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new EnvValueError('1/true/yes/on or 0/false/no/off');
};

/** Any non-blank text, kept as given. */
export const parseText: EnvParser<string> = (raw) => {
  if (raw.trim() === '') throw new EnvValueError('a non-blank text');
  return raw;
};

/** One of the listed words. */
export function oneOf<const T extends string>(choices: readonly T[]): EnvParser<T> {
  return (raw) => {
    if (!(choices as readonly string[]).includes(raw)) throw new EnvValueError(`one of ${choices.join(', ')}`);
    return raw as T;
  };
}

/** An absolute http(s) URL without query or fragment; trailing slashes removed. */
export const parseHttpUrl: EnvParser<string> = (raw) => {
  const url = parseUrl(raw, 'an absolute http(s) URL');
  if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash || url.username || url.password) {
    throw new EnvValueError('an http(s) URL without credentials, query or fragment');
  }
  return url.href.replace(/\/+$/, '');
};

/** A comma- or blank-separated list of web origins (`scheme://host[:port]`, RFC 6454), e.g. `https://app.example, http://localhost:5173`. */
export const parseOriginList: EnvParser<string[]> = (raw) =>
  raw.split(/[\s,]+/).filter(Boolean).map((item) => {
    const origin = parseOrigin(item);
    if (!origin) throw new EnvValueError(`a list of origins such as https://app.example (got '${item}')`);
    return origin;
  });

/** The origin `raw` names (`https://app.example`, no path, query or credentials), or undefined. */
export function parseOrigin(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.search || url.hash) return undefined;
  if (url.pathname !== '/' || raw.replace(/\/$/, '').length !== url.origin.length) return undefined;
  return url.origin;
}

/** A postgres:// or postgresql:// URL (the password, if any, never appears in the error). */
export const parseDatabaseUrl: EnvParser<string> = (raw) => {
  const url = parseUrl(raw, 'a postgresql:// URL');
  if (!['postgres:', 'postgresql:'].includes(url.protocol)) throw new EnvValueError('a postgresql:// URL');
  return raw;
};

/** `raw` as a URL, or the EnvValueError saying what was `expected` (never echoing `raw`: it may hold a password). */
function parseUrl(raw: string, expected: string): URL {
  try {
    return new URL(raw);
  } catch {
    throw new EnvValueError(expected);
  }
}

/** pino's log levels. */
export const parseLogLevel = oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const);

/** An IPv4 or IPv6 network in CIDR notation (a bare address is a /32 or /128). */
export interface Cidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** A comma- or blank-separated list of CIDR networks, e.g. `10.0.0.0/8, fd00::/8`. */
export const parseCidrList: EnvParser<Cidr[]> = (raw) =>
  raw.split(/[\s,]+/).filter(Boolean).map((item) => {
    const [address = '', prefixText, extra] = item.split('/');
    const version = net.isIP(address);
    const family = version === 4 ? 'ipv4' : 'ipv6';
    const bits = version === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : -1;
    if (version === 0 || extra !== undefined || prefix < 0 || prefix > bits) {
      throw new EnvValueError(`a list of CIDR networks such as 10.0.0.0/8 (got '${item}')`);
    }
    return { address, prefix, family };
  });

/** Which proxies in front of a server are believed (TRUST_PROXY; address/client-address.ts applies it). */
export type ProxyTrust =
  | { kind: 'none' }
  | { kind: 'hops'; hops: number }
  | { kind: 'networks'; networks: readonly Cidr[] };

export const NO_PROXY: ProxyTrust = { kind: 'none' };

/**
 * TRUST_PROXY: which proxies in front of a server are believed when they
 * name the client in X-Forwarded-For (address/client-address.ts).
 * `0`/`false`/`no`/`off`: none; a number n (`1`, as `true`/`yes`/`on`): n
 * proxies in a row, whatever their addresses (one: a Kubernetes Ingress or
 * load balancer); otherwise a CIDR list: loopback and those networks.
 */
export const parseProxyTrust: EnvParser<ProxyTrust> = (raw) => {
  const value = raw.trim().toLowerCase();
  if (['0', 'false', 'no', 'off'].includes(value)) return { kind: 'none' };
  if (['true', 'yes', 'on'].includes(value)) return { kind: 'hops', hops: 1 };
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > 10) throw new EnvValueError('0/false, a number of proxy hops from 1 to 10, or a list of CIDR networks');
    return { kind: 'hops', hops };
  }
  try {
    return { kind: 'networks', networks: parseCidrList(raw) };
  } catch {
    throw new EnvValueError(`0/false, a number of proxy hops (1: one ingress or load balancer), or a list of CIDR networks such as 10.0.0.0/8 (got '${raw}')`);
  }
};
