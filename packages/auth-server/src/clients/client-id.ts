/**
 * Client identifiers (RFC 6749 section 2.2, `*VSCHAR`): not empty, at most MAX_CLIENT_ID_LENGTH, printable ASCII under
 * the one text rule for identifiers, no `:` (Basic authentication splits at the first colon), no leading or trailing
 * space.
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
