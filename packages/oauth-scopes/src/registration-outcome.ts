/**
 * How the edge's POST /register tells the login page what became of a "Create account" form: a code from this
 * fixed list in the query, never text. The page shows the text written here for a known code and nothing for
 * anything else, so a link cannot put words on it (CWE-451).
 */
export const REGISTER_ERROR_MESSAGES = Object.freeze({
  missing: 'Enter a username and a password.',
  username_taken: 'That username is taken.',
  username_similar: 'That username looks like an existing one; choose another.',
  username_invalid: 'That username cannot be used: no spaces at its start or end, no control or invisible characters.',
  password_rejected: 'That password cannot be used: choose a longer one that is not a common password and not your username.',
  too_many: 'Too many accounts were created from this network; please try again later.',
  unavailable: 'The service is busy; please try again in a moment.',
  invalid: 'The account could not be created; check the username and password and try again.',
} as const);

export type RegisterErrorCode = keyof typeof REGISTER_ERROR_MESSAGES;

/** The value of `registered` after an account was created. */
export const REGISTERED = '1';
export const REGISTERED_MESSAGE = 'Account created. Sign in with it.';

/**
 * The text of a `register_error` value: only a code of the list, else undefined (nothing shown).
 *
 * Usage: `registerErrorMessage('username_taken')` → `'That username is taken.'`; `registerErrorMessage('Call +1-555')` → undefined
 */
export function registerErrorMessage(code: unknown): string | undefined {
  return typeof code === 'string' && Object.hasOwn(REGISTER_ERROR_MESSAGES, code) ? REGISTER_ERROR_MESSAGES[code as RegisterErrorCode] : undefined;
}
