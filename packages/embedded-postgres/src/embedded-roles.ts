/**
 * Least privilege on the embedded server: the superuser `postgres` has a generated password (0600 file in the data
 * folder) used only by this bootstrap and the test runner; the service connects as `heroes` (NOSUPERUSER NOCREATEDB
 * NOCREATEROLE), owner of the `heroes` database and its tables only. An older cluster is moved over on its next start;
 * the bootstrap is idempotent and runs every start, so an interrupted one completes.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { EmbeddedPostgresError } from './embedded-postgres-error.ts';
import { readOrCreateSecretFile, readSecretFile } from '@heroes/platform/local-state';

export const SUPERUSER = 'postgres';
export const SERVICE_ROLE = 'heroes';
export const SERVICE_DATABASE = 'heroes';
/** The fixed superuser password of clusters created before the generated one. */
const LEGACY_SUPERUSER_PASSWORD = 'postgres';
/** SQLSTATE of a refused password. */
const INVALID_PASSWORD = '28P01';

export interface EmbeddedPasswords {
  superuser: string;
  service: string;
}

/** The password files of the embedded server kept in `dataDir`. */
export function passwordFiles(dataDir: string): Record<keyof EmbeddedPasswords, string> {
  return {
    superuser: path.join(dataDir, 'postgres-superuser-password'),
    service: path.join(dataDir, `postgres-${SERVICE_ROLE}-password`),
  };
}

/** The passwords of `dataDir`'s embedded server, generated (once) when missing. */
export function readOrCreatePasswords(dataDir: string): EmbeddedPasswords {
  const files = passwordFiles(dataDir);
  const generate = () => `${crypto.randomBytes(32).toString('base64url')}\n`;
  return {
    superuser: readOrCreateSecretFile(files.superuser, generate).trim(),
    service: readOrCreateSecretFile(files.service, generate).trim(),
  };
}

/** The superuser password kept in `dataDir`, without creating it (undefined when missing). */
export function readSuperuserPassword(dataDir: string): string | undefined {
  return readSecretFile(passwordFiles(dataDir).superuser)?.trim() || undefined;
}

/** URL of `database` on the embedded server on `port`, as `user`. */
export function roleUrl(port: number, user: string, password: string, database: string): string {
  return `postgresql://${user}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;
}

/**
 * Makes the roles and the database of the running server on `port` what the
 * rules above say. Throws when the superuser refuses both its generated and
 * its old password.
 */
export async function bootstrapRoles(
  port: number,
  passwords: EmbeddedPasswords,
  options: { passwordFile: string; log?: (line: string) => void },
): Promise<void> {
  const admin = await superuserClient(port, passwords.superuser, 'postgres', options);
  try {
    const password = admin.escapeLiteral(passwords.service);
    const attributes = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS';
    const role = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [SERVICE_ROLE]);
    // ALTER on every start: the password file and these attributes are authoritative.
    await admin.query(`${role.rowCount === 0 ? 'CREATE' : 'ALTER'} ROLE ${SERVICE_ROLE} ${attributes} PASSWORD ${password}`);
    const database = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [SERVICE_DATABASE]);
    await admin.query(database.rowCount === 0
      ? `CREATE DATABASE ${SERVICE_DATABASE} OWNER ${SERVICE_ROLE}`
      : `ALTER DATABASE ${SERVICE_DATABASE} OWNER TO ${SERVICE_ROLE}`);
  } finally {
    await admin.end();
  }
  await giveTablesToServiceRole(port, passwords.superuser);
}

/**
 * Tables (and views, and sequences no table owns) of the public schema that
 * another role created, e.g. the superuser that ran the migrations of an
 * older cluster. Objects of extensions stay with the extension's owner;
 * a table's indexes and column sequences follow the table.
 */
async function giveTablesToServiceRole(port: number, superuserPassword: string): Promise<void> {
  const client = new pg.Client({ connectionString: roleUrl(port, SUPERUSER, superuserPassword, SERVICE_DATABASE) });
  await client.connect();
  try {
    const { rows } = await client.query<{ statement: string }>(
      `SELECT format('ALTER %s %I.%I OWNER TO %I',
                     CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
                     n.nspname, c.relname, $1::text) AS statement
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'public'
          AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
          AND c.relowner <> (SELECT oid FROM pg_roles WHERE rolname = $1)
          AND NOT EXISTS (SELECT 1 FROM pg_depend d
                           WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('e', 'a', 'i'))`,
      [SERVICE_ROLE],
    );
    for (const { statement } of rows) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A connection as the superuser with its generated password; on a cluster
 * still using the old fixed one, logs in with that once and replaces it.
 */
async function superuserClient(
  port: number,
  password: string,
  database: string,
  options: { passwordFile: string; log?: (line: string) => void },
): Promise<pg.Client> {
  const connect = async (attempt: string) => {
    const client = new pg.Client({ connectionString: roleUrl(port, SUPERUSER, attempt, database) });
    try {
      await client.connect();
      return client;
    } catch (err) {
      await client.end().catch(() => {});
      throw err;
    }
  };
  try {
    return await connect(password);
  } catch (err) {
    if ((err as { code?: string }).code !== INVALID_PASSWORD) throw err;
  }
  const legacy = await connect(LEGACY_SUPERUSER_PASSWORD).catch((err: unknown) => {
    if ((err as { code?: string }).code !== INVALID_PASSWORD) throw err;
    return undefined;
  });
  if (!legacy) {
    throw new EmbeddedPostgresError(
      `the embedded PostgreSQL server refuses the superuser password in ${options.passwordFile}; ` +
        'restore that file, or delete the data folder to start from nothing',
    );
  }
  await legacy.query(`ALTER ROLE ${SUPERUSER} PASSWORD ${legacy.escapeLiteral(password)}`);
  options.log?.(`replaced the old fixed superuser password of the embedded PostgreSQL server by the generated one in ${options.passwordFile}`);
  return legacy;
}
