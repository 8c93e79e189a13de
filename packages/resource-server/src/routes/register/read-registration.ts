/**
 * Step 1 of POST /register: a JSON or form body (AUTH_MAX_BODY_BYTES) → `{ username, password }`. Other keys → 400
 * (`id`, `hashedPassword`, `salt` ignored); missing or empty → 400 `username and password required.`; the username by
 * the one identifier rule (RFC 8265, stored as sent with its key and skeleton); the password by password-policy.ts,
 * at most 72 bytes (bcrypt would silently truncate) and without NUL.
 */
import type { Context } from 'koa';
import { BadRequestError, filterKeys, readBody } from '@heroes/http-kit';
import { prepareUsername } from '@heroes/text-rules/username';
import { invalidValue, unknownKeys, validationFailed } from '../validation-error.ts';
import type { PasswordPolicy } from './password-policy.ts';

export const REQUIRED_MESSAGE = 'username and password required.';

export interface Registration {
  username: string;
  /** The name's key (RFC 8265 UsernameCaseMapped): unique, what sign-in compares. */
  usernameKey: string;
  /** The key's UTS #39 confusable skeleton: unique, so no look-alike registers. */
  usernameSkeleton: string;
  password: string;
}

export interface RegistrationLimits {
  maxUsernameLength: number;
  maxPasswordBytes: number;
  /** Body limit of the route (AUTH_MAX_BODY_BYTES): 413 beyond it, before reading when Content-Length says so. */
  authMaxBodyBytes: number;
  passwordPolicy: PasswordPolicy;
}

const KNOWN = ['username', 'password', 'id', 'hashedPassword', 'salt'];

interface TypedState {
  typedUsername?: string;
}

/** The username of the body as sent, once read (before any check): the "Create account" form shows it again after a refusal. */
export function typedUsername(ctx: Context): string | undefined {
  return (ctx.state as TypedState).typedUsername;
}

export async function readRegistration(ctx: Context, limits: RegistrationLimits): Promise<Registration> {
  const body = (await readBody(ctx, {
    expect: 'object',
    contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
    maxBytes: limits.authMaxBodyBytes,
  })) as Record<string, unknown>;
  if (typeof body['username'] === 'string') (ctx.state as TypedState).typedUsername = body['username'];
  const input = filterKeys<Record<string, unknown>>(body, {
    reject: unknownKeys(body, KNOWN),
    ignore: ['id', 'hashedPassword', 'salt'],
  });
  const username = optionalString(input, 'username');
  const password = optionalString(input, 'password');
  if (!username || !password) throw new BadRequestError(REQUIRED_MESSAGE, { code: 'missing_credentials' });
  const { key, skeleton } = checkUsername(username, limits.maxUsernameLength);
  checkPassword(password, limits.maxPasswordBytes);
  const problem = limits.passwordPolicy.problem(password, username);
  if (problem) throw validationFailed(problem);
  return { username, usernameKey: key, usernameSkeleton: skeleton, password };
}

function optionalString(input: Record<string, unknown>, key: string): string | undefined {
  const value = input[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidValue(key);
  return value;
}

function checkUsername(username: string, max: number): { key: string; skeleton: string } {
  if (username.length > max) throw validationFailed(`'username' must be at most ${max} characters`);
  const prepared = prepareUsername(username);
  if (!prepared.ok) throw validationFailed(`'username' ${prepared.problem}`);
  return prepared;
}

function checkPassword(password: string, maxBytes: number): void {
  if (Buffer.byteLength(password, 'utf8') > maxBytes) {
    throw validationFailed(`'password' must be at most ${maxBytes} bytes (UTF-8)`);
  }
  if (password.includes('\u0000')) throw validationFailed(`'password' must not contain NUL characters`);
}
