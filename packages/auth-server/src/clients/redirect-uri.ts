/**
 * Client redirection endpoints (RFC 6749 section 3.1.2): absolute, no fragment, ASCII without whitespace, under the
 * one text rule; http(s) need a host, private-use schemes allowed (RFC 8252 section 7.1), script and content schemes
 * refused; at most MAX_REDIRECT_URIS of MAX_REDIRECT_URI_LENGTH. A native app's http URIs are loopback, its https ones
 * not (RFC 8252 sections 7.2, 7.3). Stored as given: compared exactly, but for a loopback literal's port.
 */
import { identifierProblem } from '@heroes/text-rules';
import { invalidInput } from './client-registry-error.ts';
import { printable } from './printable.ts';

export const MAX_REDIRECT_URI_LENGTH = 2048;
const MAX_REDIRECT_URIS = 50;
const FORBIDDEN_SCHEMES = new Set(['javascript', 'data', 'vbscript', 'file', 'blob', 'about']);

/**
 * Returns `uri` unchanged, or throws a one-line ClientRegistryError.
 *
 * Usage: `validateRedirectUri('https://app.example.com/callback')`
 */
export function validateRedirectUri(uri: string): string {
  const fail = (why: string) => invalidInput(`Invalid redirect URI '${printable(uri)}': ${why}`);
  if (uri.length > MAX_REDIRECT_URI_LENGTH) throw fail(`longer than ${MAX_REDIRECT_URI_LENGTH} characters.`);
  const problem = identifierProblem(uri);
  if (problem !== undefined) throw fail(`it ${problem}.`);
  if (!/^[\x21-\x7E]+$/.test(uri)) throw fail('spaces, control and non-ASCII characters are not allowed.');
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):./.exec(uri)?.[1]?.toLowerCase();
  if (!scheme) throw fail('it must be an absolute URI with a scheme, such as https://app.example.com/callback.');
  if (uri.includes('#')) throw fail('a redirect URI must not contain a fragment (RFC 6749 section 3.1.2).');
  if (FORBIDDEN_SCHEMES.has(scheme)) throw fail(`the '${scheme}' scheme is not allowed.`);
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    throw fail('it is not a valid URI.');
  }
  if ((scheme === 'http' || scheme === 'https') && (parsed.hostname === '' || !/^https?:\/\/[^/?]/i.test(uri))) {
    throw fail('an http(s) URI needs a host.');
  }
  return uri;
}

/**
 * Validated, de-duplicated redirect URIs in the order given, or a one-line
 * ClientRegistryError naming the bad one.
 *
 * Usage: `validateRedirectUris(['https://app.example/cb', 'http://127.0.0.1:8080/cb'])`
 */
export function validateRedirectUris(uris: readonly string[]): string[] {
  if (uris.length > MAX_REDIRECT_URIS) throw invalidInput(`At most ${MAX_REDIRECT_URIS} redirect URIs per client.`);
  const valid = [...new Set(uris.map(validateRedirectUri))];
  const native = valid.find((uri) => !isHttpUri(uri));
  const misfit = native === undefined ? undefined : valid.find((uri) => isHttpUri(uri) && !fitsNativeApp(uri));
  if (native !== undefined && misfit !== undefined) {
    throw invalidInput(
      `Invalid redirect URI '${misfit}' beside the private-use scheme URI '${native}': a native app's http URIs must be loopback and its https URIs must not (RFC 8252 section 7); register a web app as another client.`,
    );
  }
  return valid;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function isHttpUri(uri: string): boolean {
  return /^https?:/i.test(uri);
}

function fitsNativeApp(uri: string): boolean {
  const { protocol, hostname } = new URL(uri);
  return (protocol === 'http:') === LOOPBACK_HOSTS.has(hostname);
}

/** `http://127.0.0.1` or `http://[::1]`, with any port written canonically (no leading zero): the authority RFC 8252 section 7.3 lets vary by port. */
const LOOPBACK_IP_AUTHORITY = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::([1-9]\d{0,4}))?(?=[/?]|$)/;

/**
 * The registered redirect URI that `requested` matches, or undefined:
 * exact string match (RFC 6749 3.1.2.3, RFC 9700 4.1.3), except that for a
 * registered loopback IP literal URI (`http://127.0.0.1/…`, `http://[::1]/…`)
 * any port matches, as RFC 8252 section 7.3 requires for native apps: the
 * rest (scheme, path, query) must still be identical. `localhost` is not
 * treated so (RFC 8252 section 8.3: a name may resolve elsewhere).
 *
 * Usage: `matchRegisteredRedirectUri(['http://127.0.0.1/cb'], 'http://127.0.0.1:53123/cb')` → `'http://127.0.0.1/cb'`
 */
export function matchRegisteredRedirectUri(registered: readonly string[], requested: string): string | undefined {
  if (registered.includes(requested)) return requested;
  const loopback = withoutLoopbackPort(requested);
  if (loopback === undefined) return undefined;
  return registered.find((uri) => withoutLoopbackPort(uri) === loopback);
}

/** The URI with its loopback port removed, or undefined when it is not a loopback IP http URI with a valid port. */
function withoutLoopbackPort(uri: string): string | undefined {
  const match = LOOPBACK_IP_AUTHORITY.exec(uri);
  if (!match) return undefined;
  const port = match[2];
  if (port !== undefined && Number(port) > 65535) return undefined;
  return `http://${match[1]}${uri.slice(match[0].length)}`;
}
