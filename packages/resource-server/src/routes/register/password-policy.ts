/**
 * Registration's password rule, as NIST SP 800-63B section 5.1.1.2: at least PASSWORD_MIN_LENGTH code points, at
 * most 72 UTF-8 bytes (bcrypt), any characters and no composition rules, not one of the common passwords of
 * @zxcvbn-ts/language-common (bundled; docs/operations.md says why), not the username, not one repeated character.
 * Each refusal is a 400 naming its rule.
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
