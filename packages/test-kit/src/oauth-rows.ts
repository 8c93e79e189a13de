/**
 * OAuth clients and users written straight into the database as the CLI and POST /register store them (bcrypt at
 * cost 4), so a test needs neither the CLI nor a server to set the scene. Typed by the two tables it writes: the kit
 * depends on no server or database package of ours (only @heroes/text-rules).
 * Usage: await addClient(db, { id: 'web', secret: 's' }); await addUser(db, 'bob', 'hero-password-1')
 */
import bcrypt from 'bcrypt';
import { prepareUsername } from '@heroes/text-rules/username';

export interface ClientInput {
  id: string;
  /** Absent: a public client. */
  secret?: string | undefined;
  /** One redirect URI (the common case); `redirectUris` for several. */
  redirectUri?: string | undefined;
  redirectUris?: string[] | undefined;
  allowedScopes?: string[] | undefined;
  allowedOrigins?: string[] | undefined;
  /** Absent or empty: the default of the client's kind (docs/oauth.md). */
  grantTypes?: string[] | undefined;
  /** `auth add-client --require-dpop`. */
  requireDpop?: boolean | undefined;
}

/** The part of a Prisma client that these helpers write through. */
export interface OAuthRows {
  oAuthClient: {
    create(args: { data: { id: string; hashedSecret: string | null; redirectUris: string[]; allowedScopes: string[]; allowedOrigins: string[]; grantTypes?: string[]; requireDpop?: boolean } }): PromiseLike<unknown>;
  };
  user: {
    create(args: { data: { username: string; usernameKey: string; usernameSkeleton: string; salt: string; hashedPassword: string } }): PromiseLike<{ id: number }>;
  };
}

const COST = 4;

export async function addClient(db: Pick<OAuthRows, 'oAuthClient'>, input: ClientInput): Promise<void> {
  await db.oAuthClient.create({
    data: {
      id: input.id,
      hashedSecret: input.secret === undefined ? null : await bcrypt.hash(input.secret, COST),
      redirectUris: input.redirectUris ?? (input.redirectUri === undefined ? [] : [input.redirectUri]),
      allowedScopes: input.allowedScopes ?? [],
      allowedOrigins: input.allowedOrigins ?? [],
      ...(input.grantTypes === undefined ? {} : { grantTypes: input.grantTypes }),
      ...(input.requireDpop ? { requireDpop: true } : {}),
    },
  });
}

/** A user as POST /register writes it (with its name's key and skeleton); its id. */
export async function addUser(db: Pick<OAuthRows, 'user'>, username: string, password: string): Promise<number> {
  const prepared = prepareUsername(username);
  if (!prepared.ok) throw new Error(`addUser: '${username}' ${prepared.problem}`);
  const salt = await bcrypt.genSalt(COST);
  const user = await db.user.create({
    data: { username, usernameKey: prepared.key, usernameSkeleton: prepared.skeleton, salt, hashedPassword: await bcrypt.hash(password, salt) },
  });
  return user.id;
}
