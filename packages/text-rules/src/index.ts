/**
 * @heroes/text-rules — what a stored string may hold (the one text rule:
 * stored-text.ts) and what makes a username (RFC 8265 with a UTS #39
 * confusable check: username.ts, also at `@heroes/text-rules/username`).
 * Both servers, the `auth` CLI and @heroes/db's username mapping use it.
 */
export { codePoint, identifierProblem, textProblem } from './stored-text.ts';
export { confusableSkeleton, prepareUsername, usernameKey, type PreparedUsername } from './username.ts';
