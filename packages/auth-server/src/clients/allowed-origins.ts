/**
 * A client's allowed web origins (docs/oauth.md, "Browser origins"): the pages that may call the token, revoke and
 * introspect endpoints for it. Each an http(s) origin without path, query or credentials, at most MAX_ALLOWED_ORIGINS;
 * none registered means the origins of its http(s) redirect URIs.
 */
import { parseOrigin } from '@heroes/platform';
import { invalidInput } from './client-registry-error.ts';

const MAX_ALLOWED_ORIGINS = 50;

/** Validated, de-duplicated origins; throws a one-line error naming the bad one. */
export function validateAllowedOrigins(values: readonly string[]): string[] {
  if (values.length > MAX_ALLOWED_ORIGINS) throw invalidInput(`At most ${MAX_ALLOWED_ORIGINS} allowed origins.`);
  const origins = values.map((value) => {
    const origin = parseOrigin(value);
    if (!origin) throw invalidInput(`Allowed origin '${value}' is not an origin such as https://app.example (scheme, host and port only).`);
    return origin;
  });
  return [...new Set(origins)];
}

/** The origins a client's pages may call from: the registered ones, else its redirect URIs' origins. */
export function effectiveOrigins(allowedOrigins: readonly string[], redirectUris: readonly string[]): string[] {
  if (allowedOrigins.length > 0) return [...allowedOrigins];
  const fromRedirects = redirectUris.map((uri) => (/^https?:/i.test(uri) ? parseOrigin(new URL(uri).origin) : undefined));
  return [...new Set(fromRedirects.filter((origin): origin is string => origin !== undefined))];
}
