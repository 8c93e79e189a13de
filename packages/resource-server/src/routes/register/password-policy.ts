/**
 * The password rule of registration, as NIST SP 800-63B (section 5.1.1.2)
 * puts it: length and a blocklist, no composition rules.
 *
 * Rules enforced here (each refusal a 400 naming its rule):
 * - at least `minLength` characters (PASSWORD_MIN_LENGTH, default 8),
 *   counted in Unicode code points: `'password' must be at least 8 characters`;
 * - at most 72 UTF-8 bytes (read-registration.ts: bcrypt's limit), which
 *   allows 64 characters and more of ASCII: NIST's "at least 64";
 * - any characters, spaces included, and no demand for digits, capitals or
 *   symbols (composition rules make passwords predictable, not strong);
 * - not one of the most common passwords, compared case-insensitively with
 *   the frequency list of @zxcvbn-ts/language-common (49,000 passwords from
 *   breach corpora, bundled: no network at run time; docs/operations.md says
 *   why this list): `'password' is too common (…)`;
 * - not the username, and not one character repeated (`aaaaaaaa`):
 *   the context-specific and repetitive values NIST names.
 *
 * Usage:
 *   const policy = createPasswordPolicy({ minLength: 8 });
 *   const problem = policy.problem('password1', 'bob'); // a message, or undefined when acceptable
 */
import { dictionary } from '@zxcvbn-ts/language-common';

export interface PasswordPolicyOptions {
  /** Fewest characters (code points). */
  minLength: number;
}

export interface PasswordPolicy {
  /** Why `password` may not be used by `username`, or undefined. */
  problem(password: string, username: string): string | undefined;
}

let common: Set<string> | undefined;

/** The blocklist, lower-cased, built once per process. */
function commonPasswords(): Set<string> {
  return (common ??= new Set(dictionary['passwords-common'].map((entry) => entry.toLowerCase())));
}

export function createPasswordPolicy({ minLength }: PasswordPolicyOptions): PasswordPolicy {
  const blocklist = commonPasswords();
  return {
    problem(password, username) {
      const characters = [...password];
      if (characters.length < minLength) return `'password' must be at least ${minLength} characters`;
      const folded = password.toLowerCase();
      if (blocklist.has(folded)) return `'password' is one of the most common passwords; choose another (a few words make a good one)`;
      if (folded === username.toLowerCase()) return `'password' must not be the username`;
      if (characters.every((character) => character === characters[0])) return `'password' must not be one character repeated`;
      return undefined;
    },
  };
}
