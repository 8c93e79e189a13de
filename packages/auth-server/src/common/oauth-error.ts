/**
 * OAuth 2.0 error answers of our own routes (RFC 6749 section 5.2) in http-kit's one error hierarchy:
 * `{"error": code, "error_description": ...}`. Inside oidc-provider's routes the library's error classes render the
 * same body.
 */
import { HttpError } from '@heroes/http-kit';

export class OAuthError extends HttpError {
  constructor(status: number, code: string, description: string, headers: Record<string, string> = {}, options: { expose?: boolean; cause?: unknown } = {}) {
    super(status, code, { ...options, code, details: { error_description: description }, headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers } });
  }
}

/** 401 invalid_client. */
export class InvalidClientError extends OAuthError {
  constructor(description: string, headers: Record<string, string> = {}) {
    super(401, 'invalid_client', description, headers);
  }
}

// temporarily_unavailable is http-kit's RetryLaterError, rendered by common/temporarily-unavailable.ts.
