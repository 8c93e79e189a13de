/**
 * Client identifiers (RFC 6749 section 2.2 and Appendix A.1:
 * `client-id = *VSCHAR`, VSCHAR = %x20-7E).
 *
 * Rules enforced here:
 * - not empty, at most {@link MAX_CLIENT_ID_LENGTH} characters;
 * - the one text rule for identifiers (@heroes/text-rules identifierProblem:
 *   no control, invisible or unassigned character), and printable ASCII only;
 * - no ':' — HTTP Basic client authentication (RFC 6749 2.3.1) splits
 *   `id:secret` at the first colon, so an id with one could not log in;
 * - no leading or trailing space (almost always a typo).
 */
import { identifierProblem } from '@heroes/text-rules';
import { invalidInput } from './client-registry-error.ts';
import { printable } from './printable.ts';
import { isVschar } from './vschar.ts';

export const MAX_CLIENT_ID_LENGTH = 255;

/**
 * Returns `id` unchanged, or throws a one-line ClientRegistryError.
 *
 * Usage: `validateClientId('hero-web')`
 */
export function validateClientId(id: string): string {
  if (id === '') throw invalidInput('Client ID must not be empty.');
  if (id.length > MAX_CLIENT_ID_LENGTH) {
    throw invalidInput(`Client ID is too long (${id.length} characters; at most ${MAX_CLIENT_ID_LENGTH}).`);
  }
  const problem = identifierProblem(id);
  if (problem !== undefined || !isVschar(id)) {
    throw invalidInput(`Invalid client ID '${printable(id)}': ${problem === undefined ? '' : `it ${problem}; `}only printable ASCII characters are allowed.`);
  }
  if (id.includes(':')) {
    throw invalidInput(`Invalid client ID '${id}': ':' is not allowed (it separates id and secret in HTTP Basic authentication).`);
  }
  if (id.trim() !== id) throw invalidInput(`Invalid client ID '${id}': leading or trailing spaces are not allowed.`);
  return id;
}
