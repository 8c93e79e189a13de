/**
 * What every section gets: the running stack, a seeded confidential client,
 * a user with a valid access token, a pg pool on the service database (for
 * bulk seeding) and the run's settings.
 */
import crypto from 'node:crypto';
import bcrypt from 'bcrypt';
import pg from 'pg';
import { passwordToken } from '@heroes/test-kit';
import { expectOk, post } from './http.ts';
import type { Stack } from './stack.ts';

export interface BenchContext extends Stack {
  client: { id: string; secret: string };
  user: { username: string; password: string };
  /** A valid access token of `user`, issued to `client`. */
  token: string;
  /** Seconds each measured load runs (BENCH_DURATION, default 10). */
  duration: number;
  /** bcrypt cost the servers use (BCRYPT_COST, default 10). */
  cost: number;
  sql: pg.Pool;
  say(line: string): void;
}

export async function createContext(stack: Stack, settings: { duration: number; cost: number; say: (line: string) => void }): Promise<BenchContext> {
  const sql = new pg.Pool({ connectionString: stack.databaseUrl, max: 4 });
  const client = { id: `bench-${crypto.randomBytes(4).toString('hex')}`, secret: crypto.randomBytes(16).toString('hex') };
  await sql.query('INSERT INTO oauth_clients (id, hashed_secret) VALUES ($1, $2)', [client.id, await bcrypt.hash(client.secret, settings.cost)]);
  const user = { username: `bench-${crypto.randomBytes(4).toString('hex')}`, password: 'bench password' };
  await expectOk(await post(`${stack.baseUrl}/register`, { 'content-type': 'application/json' }, JSON.stringify(user)), 'register');
  const token = await issueToken(stack.baseUrl, client, user);
  return { ...stack, ...settings, client, user, token, sql };
}

export async function issueToken(baseUrl: string, client: { id: string; secret: string }, user: { username: string; password: string }): Promise<string> {
  return (await passwordToken(baseUrl, client, user.username, user.password)).access_token;
}
