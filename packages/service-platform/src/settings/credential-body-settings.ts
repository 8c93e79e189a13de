/**
 * The body limit of credential routes (sign-in, token, registration), the
 * same in every server that has such routes: they take a few fields, so a
 * small limit keeps a large anonymous body from ever being read or decoded
 * (413 before reading when Content-Length says so). Other routes keep the
 * kit's MAX_BODY_BYTES. Spread into a settings table.
 *
 * Usage: `defineSettings({ ...credentialBodySettings(), port: ... })`
 */
import { integer } from './env-parsers.ts';

/** 64 KiB: ample for every OAuth parameter at its longest, percent-encoded. */
export const CREDENTIAL_BODY_BYTES = 64 * 1024;

export function credentialBodySettings() {
  return {
    authMaxBodyBytes: {
      env: 'AUTH_MAX_BODY_BYTES', parse: integer({ min: 1024, max: 1024 * 1024 }), default: CREDENTIAL_BODY_BYTES,
      doc: 'body limit of the OAuth endpoints, the login form and `POST /register`, bytes (413 beyond it; other routes: MAX_BODY_BYTES)',
    },
  };
}
