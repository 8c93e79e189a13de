/**
 * The hero API's resource identifier (RFC 8707 section 2, RFC 9728 section 1.2), one rule for both servers: the
 * public base URL URL-serialized (`https://heroes.example/`), as published, put in `aud` and compared by clients.
 * A `resource` parameter is an absolute http(s) URI without fragment, the API named with or without its trailing
 * slash; the metadata is at the well-known path inserted before the identifier's path (RFC 9728 section 3.1).
 */

/** RFC 9728 section 3: the well-known suffix of protected resource metadata. */
export const PROTECTED_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The identifier of the API served at `publicBaseUrl` (PUBLIC_BASE_URL). */
export function resourceIdentifier(publicBaseUrl: string): string {
  return new URL(publicBaseUrl).href;
}

/** The URL of the resource's metadata document (RFC 9728 section 3.1). */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}${PROTECTED_RESOURCE_METADATA_PATH}${path}`;
}

/**
 * True when the `resource` value names the resource `identifier`: both
 * absolute http(s) URIs, neither with a fragment, equal once serialized and
 * a trailing slash of the path ignored. Anything else (not a URI, relative,
 * with a fragment, another resource) is false.
 */
export function isSameResource(value: string, identifier: string): boolean {
  const key = comparisonKey(value);
  return key !== undefined && key === comparisonKey(identifier);
}

/** True when an RFC 7662 `aud` (a string or a list) names `identifier`. */
export function audienceIncludes(aud: unknown, identifier: string): boolean {
  const values = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  return values.some((value) => typeof value === 'string' && isSameResource(value, identifier));
}

function comparisonKey(value: string): string | undefined {
  if (value.includes('#')) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  return url.href.replace(/\/$/, '');
}
