import test from 'ava';
import { printedSecret, runAuth } from '../_helpers/run-auth.ts';
import { useTestDatabase } from '../_helpers/test-database.ts';

const ctx = useTestDatabase(test);
const auth = (...args: string[]) => runAuth(args, { databaseUrl: ctx.url });

test.serial('list-clients on an empty registry says so', async (t) => {
  const result = await auth('list-clients');
  t.is(result.code, 0, result.stderr);
  t.is(result.stdout, 'No clients registered.\n');
  const json = await auth('list-clients', '--json');
  t.deepEqual(JSON.parse(json.stdout), []);
});

test.serial('list-clients shows every client but never a secret or hash', async (t) => {
  t.is((await auth('add-client', '--id', 'web', '--secret', 'plain-secret-1', '--allowed-scopes', 'heroes', '--redirect-uri', 'https://a.example/cb', '--redirect-uri', 'https://b.example/cb')).code, 0);
  const generated = printedSecret((await auth('add-client', '--id', 'gen', '--generate-secret')).stdout)!;
  t.is((await auth('add-client', '--id', 'mobile')).code, 0);
  const hashes = (await ctx.db.oAuthClient.findMany()).map((c) => c.hashedSecret).filter((h) => h !== null);
  t.is(hashes.length, 2);

  const table = await auth('list-clients');
  t.is(table.code, 0, table.stderr);
  const lines = table.stdout.trimEnd().split('\n');
  t.regex(lines[0]!, /^ID\s+TYPE\s+GRANT TYPES\s+REDIRECT URIS\s+ALLOWED SCOPES$/);
  t.regex(lines[1]!, /^gen\s+confidential\s+password authorization_code refresh_token\s+-\s+-$/);
  t.regex(lines[2]!, /^mobile\s+public\s+password authorization_code\s+-\s+-$/);
  t.regex(lines[3]!, /^web\s+confidential\s+password authorization_code refresh_token\s+https:\/\/a\.example\/cb https:\/\/b\.example\/cb\s+heroes$/);

  const json = await auth('list-clients', '--json');
  t.is(json.code, 0, json.stderr);
  const rows = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
  t.deepEqual(rows.map((r) => [r.id, r.type, r.redirectUris, r.allowedScopes, r.effectiveScopes, r.effectiveOrigins]), [
    ['gen', 'confidential', [], [], ['heroes:read', 'heroes:write'], []],
    ['mobile', 'public', [], [], ['heroes:read', 'heroes:write'], []],
    ['web', 'confidential', ['https://a.example/cb', 'https://b.example/cb'], ['heroes'], ['heroes'], ['https://a.example', 'https://b.example']],
  ]);
  for (const output of [table.stdout, table.stderr, json.stdout, json.stderr]) {
    t.false(output.includes('plain-secret-1'));
    t.false(output.includes(generated));
    t.false(output.includes('$2b$'));
    for (const hash of hashes) t.false(output.includes(hash!));
  }
  for (const row of rows) {
    t.deepEqual(Object.keys(row).sort(), ['allowedOrigins', 'allowedScopes', 'createdAt', 'effectiveGrantTypes', 'effectiveOrigins', 'effectiveScopes', 'grantTypes', 'id', 'redirectUris', 'type', 'updatedAt']);
  }
});
