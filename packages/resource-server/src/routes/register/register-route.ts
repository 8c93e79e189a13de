/**
 * POST /register (docs/heroes-api.md, Registration): no authentication.
 * Steps: readRegistration → countRegistration (per-address limit, 429) →
 * hash (bcrypt, random salt per user) → insert → 200 `{id, username}`. A duplicate username → 409 (http-kit maps P2002).
 * - `salt` stores the bcrypt salt string the hash was made with; the hash
 *   embeds it too, so the authorization server verifies with
 *   `bcrypt.compare(password, hashedPassword)`.
 */
import type Router from '@koa/router';
import bcrypt from 'bcrypt';
import { defineResource, dispatchByMethod } from '@heroes/http-kit';
import type { PrismaClient } from '@heroes/db';
import { readRegistration, type RegistrationLimits } from './read-registration.ts';
import { countRegistration, type RegistrationLimit } from './registration-limit.ts';

export const User = defineResource({ inputOnly: ['password'], outputOmitted: ['hashedPassword', 'salt'] });

export interface RegisterDeps extends RegistrationLimits, RegistrationLimit {
  db: PrismaClient;
  bcryptCost: number;
}

/**
 * Usage:
 *   mountRegisterRoute(router, { db, bcryptCost: 10, maxUsernameLength: 150, maxPasswordBytes: 72,
 *     registerAddressLimit: 100, registerAddressWindowMs: 900_000 });
 */
export function mountRegisterRoute(router: Router, deps: RegisterDeps): void {
  router.all('/register', dispatchByMethod([], {
    POST: [async function register(ctx) {
      const { username, password } = await readRegistration(ctx, deps);
      await countRegistration(ctx, deps.db, deps);
      const salt = await bcrypt.genSalt(deps.bcryptCost);
      const hashedPassword = await bcrypt.hash(password, salt);
      const user = await deps.db.user.create({
        select: { id: true, username: true },
        data: { username, hashedPassword, salt },
      });
      ctx.body = User.toMap(user);
    }],
  }));
}
