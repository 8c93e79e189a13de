/**
 * Creates a retry cannot duplicate (docs/heroes-api.md, "Retrying a create"): a keyed request, scoped to its route
 * and caller and fingerprinted by an HMAC under a key derived from the client secret, runs once; its create and
 * answer are written in one transaction (an error answer is not kept). A repeat gets the first answer; another
 * fingerprint → 422 `idempotency_key_reused`; while the first runs → 409 `idempotency_key_in_use` with Retry-After.
 */
import crypto from 'node:crypto';
import type { Context } from 'koa';
import { HttpError } from '@heroes/http-kit';
import type { Database, Query } from '../../data/create-pool.ts';
import { findAnswer, lockKey, recordAnswer, type KeyedRequest, type StoredAnswer } from '@heroes/db/pg';
import { readIdempotencyKey } from './idempotency-key.ts';

export interface CreateOnceOptions {
  db: Database;
  /** RESOURCE_SERVER_CLIENT_SECRET: the fingerprint key is derived from it. */
  clientSecret: string;
  /** IDEMPOTENCY_KEY_HOURS. */
  keepHours: number;
}

export interface Keyed extends KeyedRequest {
  fingerprint: string;
}

export interface CreateOnce {
  /** The request's key, scope and fingerprint; undefined without the header; 400 for a bad header. */
  keyed(ctx: Context, scope: string, fields: readonly string[]): Keyed | undefined;
  /** Answers from the stored answer (true), 422 for another request under the key, false when none is stored. */
  replay(ctx: Context, keyed: Keyed): Promise<boolean>;
  /** Runs `create` (once per key when keyed) and answers 200 with its result, or the stored answer. */
  run(ctx: Context, keyed: Keyed | undefined, create: (query: Query) => Promise<object>): Promise<void>;
}

export function createOnce({ db, clientSecret, keepHours }: CreateOnceOptions): CreateOnce {
  const fingerprintKey = Buffer.from(crypto.hkdfSync('sha256', clientSecret, '', 'heroes idempotency fingerprint', 32));
  const keepSeconds = keepHours * 3600;

  const answerWith = (ctx: Context, keyed: Keyed, stored: StoredAnswer): true => {
    if (stored.fingerprint !== keyed.fingerprint) {
      throw new HttpError(422, `this Idempotency-Key was used for another request; use a new key for each request`, {
        code: 'idempotency_key_reused',
      });
    }
    ctx.status = stored.status;
    ctx.body = JSON.parse(stored.response) as unknown;
    return true;
  };

  return {
    keyed(ctx, scope, fields) {
      const key = readIdempotencyKey(ctx);
      if (key === undefined) return undefined;
      const fingerprint = crypto.createHmac('sha256', fingerprintKey).update(JSON.stringify([scope, ...fields])).digest('base64url');
      return { scope, key, fingerprint };
    },
    async replay(ctx, keyed) {
      const stored = await findAnswer((config) => db.query(config), keyed);
      return stored ? answerWith(ctx, keyed, stored) : false;
    },
    async run(ctx, keyed, create) {
      if (!keyed) {
        ctx.body = await create((config) => db.query(config));
        return;
      }
      const stored = await db.transaction(async (query) => {
        if (!(await lockKey(query, keyed))) {
          throw new HttpError(409, 'a request with this Idempotency-Key is still being processed; retry after `Retry-After` seconds', {
            code: 'idempotency_key_in_use',
            headers: { 'Retry-After': '1' },
          });
        }
        const earlier = await findAnswer(query, keyed);
        if (earlier) return earlier;
        const answer = { fingerprint: keyed.fingerprint, status: 200, response: JSON.stringify(await create(query)) };
        await recordAnswer(query, keyed, answer, keepSeconds);
        return answer;
      });
      answerWith(ctx, keyed, stored);
    },
  };
}
