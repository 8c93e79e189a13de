import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import pg from 'pg';
import { freePort } from '@heroes/test-kit';

const isRoot = process.getuid?.() === 0;


// The embedded server keeps its cluster under HEROES_DATA_DIR: use a private
// one inside a folder left 0700 as mkdtemp makes it (as a checkout under
// `mktemp -d` would be).
const parentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-embedded-'));
const dataDir = path.join(parentDir, 'data');
process.env.HEROES_DATA_DIR = dataDir;
process.env.EMBEDDED_PG_PORT = String(await freePort());
const { startEmbeddedPostgres } = await import('../src/embedded-postgres.ts');
const { applyMigrations } = await import('@heroes/db');

test.after.always(() => fs.rmSync(parentDir, { recursive: true, force: true }));

async function query(url: string, sql: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

/** The URL `url` with another user and password. */
function as(url: string, user: string, password: string, database?: string): string {
  const parsed = new URL(url);
  parsed.username = user;
  parsed.password = password;
  if (database) parsed.pathname = `/${database}`;
  return parsed.toString();
}

test.serial('starts a real PostgreSQL server, keeps its data between runs and is reused while running', async (t) => {
  const said: { line: string; parentSearchable: boolean }[] = [];
  const log = (line: string) => said.push({ line, parentSearchable: (fs.statSync(parentDir).mode & 0o001) !== 0 });
  const first = await startEmbeddedPostgres({ log });
  t.true(first.startedHere);
  if (isRoot) {
    t.is(fs.statSync(parentDir).mode & 0o001, 0o001, 'as root, the postgres user may search the folders above the data');
    const announced = said.filter(({ line }) => line.includes(`making ${parentDir} searchable by other users`));
    t.is(announced.length, 1, JSON.stringify(said));
    t.false(announced[0]!.parentSearchable, 'the change is announced before it is made');
  }
  await query(first.url, 'CREATE TABLE kept (value text); INSERT INTO kept VALUES (\'still here\')');

  const attached = await startEmbeddedPostgres();
  t.false(attached.startedHere, 'a second start attaches to the running server');
  t.is(attached.url, first.url);
  await attached.stop(); // a no-op: it did not start the server
  t.is((await query(first.url, 'SELECT 1 AS one')).rows[0].one, 1);

  await first.stop();
  await t.throwsAsync(query(first.url, 'SELECT 1'));

  const second = await startEmbeddedPostgres();
  t.true(second.startedHere);
  t.is((await query(second.url, 'SELECT value FROM kept')).rows[0].value, 'still here');
  await query(second.url, 'DROP TABLE kept'); // the next test migrates an empty schema
  await second.stop();
});

test.serial('the service connects as a role that is no superuser and owns only its database; passwords are generated and kept 0600', async (t) => {
  const server = await startEmbeddedPostgres();
  t.teardown(() => server.stop());
  for (const name of ['postgres-superuser-password', 'postgres-heroes-password']) {
    const stat = fs.statSync(path.join(dataDir, name));
    t.is(stat.mode & 0o777, 0o600, name);
    t.true(stat.size >= 40, `${name} holds a generated password`);
  }
  const superuserPassword = fs.readFileSync(path.join(dataDir, 'postgres-superuser-password'), 'utf8').trim();
  t.is(decodeURIComponent(new URL(server.superuserUrl).password), superuserPassword);
  t.not(new URL(server.url).password, new URL(server.superuserUrl).password);

  const role = (await query(server.url, `SELECT current_user AS name, rolsuper, rolcreatedb, rolcreaterole
                                           FROM pg_roles WHERE rolname = current_user`)).rows[0];
  t.deepEqual(role, { name: 'heroes', rolsuper: false, rolcreatedb: false, rolcreaterole: false });
  const owned = (await query(server.url, `SELECT datname FROM pg_database WHERE datdba = (SELECT oid FROM pg_roles WHERE rolname = current_user)`)).rows;
  t.deepEqual(owned, [{ datname: 'heroes' }]);
  await t.throwsAsync(query(server.url, 'CREATE DATABASE elsewhere'), { message: /permission denied/ });

  // The migrations (pg_trgm included: a trusted extension) run as that role.
  await applyMigrations(server.url);
  const tables = await query(server.url, `SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tableowner <> 'heroes'`);
  t.is(tables.rows[0].n, 0);
  t.is((await query(server.url, `SELECT count(*)::int AS n FROM pg_extension WHERE extname = 'pg_trgm'`)).rows[0].n, 1);

  // The old fixed password no longer opens the superuser account.
  await t.throwsAsync(query(as(server.superuserUrl, 'postgres', 'postgres'), 'SELECT 1'), { message: /password authentication failed/ });
  t.true((await query(server.superuserUrl, 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows[0].rolsuper, 'the generated one does');
});

test.serial('a cluster made with the old fixed superuser password is moved over on its next start', async (t) => {
  const before = await startEmbeddedPostgres();
  // What an older version left: superuser password `postgres`, its tables owned by the superuser, no service role.
  await query(as(before.superuserUrl, 'postgres', decodeURIComponent(new URL(before.superuserUrl).password), 'heroes'), `
    CREATE TABLE old_table (value text);
    INSERT INTO old_table VALUES ('from before');
    ALTER DATABASE heroes OWNER TO postgres;
    REASSIGN OWNED BY heroes TO postgres;
    DROP OWNED BY heroes;`);
  await query(before.superuserUrl, `DROP ROLE heroes; ALTER ROLE postgres PASSWORD 'postgres'`);
  await before.stop();

  const lines: string[] = [];
  const after = await startEmbeddedPostgres({ log: (line) => lines.push(line) });
  t.teardown(() => after.stop());
  t.true(lines.some((line) => line.includes('replaced the old fixed superuser password')), lines.join('\n'));
  await t.throwsAsync(query(as(after.superuserUrl, 'postgres', 'postgres'), 'SELECT 1'), { message: /password authentication failed/ });
  t.is((await query(after.url, 'SELECT value FROM old_table')).rows[0].value, 'from before');
  await query(after.url, `INSERT INTO old_table VALUES ('written by the service role')`);
  const superuser = (await query(after.url, 'SELECT rolsuper FROM pg_roles WHERE rolname = current_user')).rows[0].rolsuper;
  t.false(superuser);
});

test.serial('a server of another data folder on EMBEDDED_PG_PORT is refused in one line', async (t) => {
  const server = await startEmbeddedPostgres();
  t.teardown(() => server.stop());
  const otherDir = path.join(parentDir, 'other');
  const { stdout, stderr, code } = await runNode(
    `import { startEmbeddedPostgres } from ${JSON.stringify(path.resolve('src/embedded-postgres.ts'))};
     await startEmbeddedPostgres().then(() => console.log('attached'), (err) => { console.error(err.message); process.exitCode = 1; });`,
    { ...process.env, HEROES_DATA_DIR: otherDir },
  );
  t.is(code, 1, stdout + stderr);
  t.is(stdout, '');
  const lines = stderr.trim().split('\n');
  t.is(lines.length, 1, stderr);
  t.regex(lines[0]!, new RegExp(`^port ${process.env.EMBEDDED_PG_PORT} is taken by a PostgreSQL server that refuses this data folder's superuser password, not the embedded server of ${otherDir}/postgres;`));
  t.false(fs.existsSync(path.join(otherDir, 'postgres-superuser-password')), 'nothing is created for the refused folder');
});

async function runNode(source: string, env: NodeJS.ProcessEnv): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { stdout, stderr, code };
}
