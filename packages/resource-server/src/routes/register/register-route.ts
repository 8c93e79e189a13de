/**
 * POST /register (docs/heroes-api.md, Registration), no authentication: read → per-address limit (429) → bcrypt
 * through the bounded hash queue (full: 503 at once) → insert with its `user.registered` audit event → 200
 * `{id, username}`. A duplicate key → 409; a look-alike skeleton → 409 saying so. With an Idempotency-Key once per
 * key (its record holds an HMAC, never the password). The hash embeds its salt: the auth server uses bcrypt.compare.
 */
import type Router from '@koa/router';
import bcrypt from 'bcrypt';
import { ConflictError, defineResource, dispatchByMethod } from '@heroes/http-kit';
import { auditedQueryable, auditLogRecord, insertUser, type AuditEvent } from '@heroes/db/pg';
import { currentRequestId, type BoundedQueue } from '@heroes/platform';
import type { Logger } from 'pino';
import type { Database } from '../../data/create-pool.ts';
import type { CreateOnce } from '../idempotency/create-once.ts';
import { createPasswordPolicy } from './password-policy.ts';
import { readRegistration, type RegistrationLimits } from './read-registration.ts';
import { registerFromPage } from './register-from-page.ts';
import { countRegistration, type RegistrationLimit } from './registration-limit.ts';

export const User = defineResource({ inputOnly: ['password'], outputOmitted: ['hashedPassword', 'salt'] });

export interface RegisterDeps extends Omit<RegistrationLimits, 'passwordPolicy'>, RegistrationLimit {
  /** PASSWORD_MIN_LENGTH (password-policy.ts). */
  passwordMinLength: number;
  db: Database;
  /** For the login page's "Create account" form (register-from-page.ts): where it posts from, */
  publicBaseUrl: string;
  /** and the authorization server that draws it again after a refusal, within authProxyTimeoutMs. */
  authServerUrl: string;
  authProxyTimeoutMs: number;
  bcryptCost: number;
  hashQueue: BoundedQueue;
  /** Where the audit event's line goes. */
  logger?: Logger;
  /** Registrations sent with an Idempotency-Key. */
  once: CreateOnce;
}

/**
 * Usage:
 *   mountRegisterRoute(router, { db, hashQueue, once, bcryptCost: 10, maxUsernameLength: 150, maxPasswordBytes: 72, passwordMinLength: 8, authMaxBodyBytes: 65536,
 *     registerAddressLimit: 100, registerAddressWindowMs: 900_000 });
 */
export function mountRegisterRoute(router: Router, deps: RegisterDeps): void {
  const limits: RegistrationLimits = { ...deps, passwordPolicy: createPasswordPolicy({ minLength: deps.passwordMinLength }) };
  router.all('/register', dispatchByMethod([], {
    POST: [registerFromPage({ publicBaseUrl: deps.publicBaseUrl, authServerUrl: deps.authServerUrl, timeoutMs: deps.authProxyTimeoutMs }), async function register(ctx) {
      const { username, usernameKey, usernameSkeleton, password } = await readRegistration(ctx, limits);
      const keyed = deps.once.keyed(ctx, 'POST /register', [username, password]);
      if (keyed && (await deps.once.replay(ctx, keyed))) return;
      await countRegistration(ctx, deps.db, deps);
      const { salt, hashedPassword } = await deps.hashQueue.run(async () => {
        const salt = await bcrypt.genSalt(deps.bcryptCost);
        return { salt, hashedPassword: await bcrypt.hash(password, salt) };
      });
      const event: AuditEvent = { type: 'user.registered', username, address: ctx.ip, requestId: currentRequestId() };
      let created = false;
      await deps.once.run(ctx, keyed, async (query) => {
        const user = await insertUser(auditedQueryable({ query }, event), { username, usernameKey, usernameSkeleton, hashedPassword, salt }).catch(refuseLookAlike);
        created = true;
        return User.toMap(user);
      });
      if (created) deps.logger?.info({ audit: auditLogRecord(event) }, 'audit event');
    }],
  }));
}

/** The skeleton index refused the row: the name differs from every other, but looks like one. */
function refuseLookAlike(err: unknown): never {
  const { code, constraint } = err as { code?: string; constraint?: string };
  if (code === '23505' && constraint === 'users_username_skeleton_key') {
    throw new ConflictError('entity_already_exists', {
      code: 'username_too_similar',
      details: { reasons: ["'username' looks like an existing username; choose another"] },
      cause: err,
    });
  }
  throw err;
}
