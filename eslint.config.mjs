// Lint for the whole repository (`npm run lint`, part of `npm test`): the recommended rules of ESLint and
// typescript-eslint without type information (fast on a small CI box), plus the source rules of the project below.
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The documented variables: the names in docs/configuration.md's generated settings table. */
const documented = [...fs.readFileSync(new URL('docs/configuration.md', import.meta.url), 'utf8').matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((match) => match[1]);
if (!documented.includes('DATABASE_URL')) throw new Error('eslint.config.mjs: no settings table found in docs/configuration.md');
const names = `/^(${documented.join('|')})$/`;
/** `process.env.X`, `process.env['X']`, `env.X`, `env['X']` read (not assigned, not deleted) for a documented X. */
const envRead = (object) => [
  `MemberExpression${object}[property.name=${names}]:not(AssignmentExpression > MemberExpression.left):not(UnaryExpression[operator='delete'] > MemberExpression)`,
  `MemberExpression${object}[computed=true][property.value=${names}]:not(AssignmentExpression > MemberExpression.left):not(UnaryExpression[operator='delete'] > MemberExpression)`,
];
const settingsReads = [...envRead("[object.object.name='process'][object.property.name='env']"), ...envRead("[object.name='env']")].map((selector) => ({
  selector,
  message: 'A documented variable is read through its entry in the settings catalogue (SHARED_SETTINGS or the settings.ts that declares it), never from the environment directly.',
}));
/**
 * Prisma's client API outside @heroes/db (one data path, docs/architecture.md): a model delegate's query (`db.hero.findMany`,
 * every model of prisma/schema.prisma), a raw statement or a transaction. Servers and the CLI call the repositories.
 */
const models = [...fs.readFileSync(new URL('prisma/schema.prisma', import.meta.url), 'utf8').matchAll(/^model (\w+) \{/gm)].map((match) => match[1][0].toLowerCase() + match[1].slice(1));
if (!models.includes('hero')) throw new Error('eslint.config.mjs: no models found in prisma/schema.prisma');
const delegateCalls = 'findUnique|findUniqueOrThrow|findFirst|findFirstOrThrow|findMany|create|createMany|createManyAndReturn|update|updateMany|updateManyAndReturn|upsert|delete|deleteMany|count|aggregate|groupBy';
const prismaOutsideDb = [
  {
    selector: `CallExpression > MemberExpression.callee[object.type='MemberExpression'][object.property.name=/^(${models.join('|')})$/][property.name=/^(${delegateCalls})$/]`,
    message: "A Prisma model query runs in @heroes/db's repositories (packages/db/src/repositories/): call a repository function.",
  },
  {
    selector: 'MemberExpression[property.name=/^\\$(queryRaw|queryRawUnsafe|queryRawTyped|executeRaw|executeRawUnsafe|transaction)$/]',
    message: "Raw statements and transactions run in @heroes/db: a repository function, or inTransaction(db, (tx) => ...) composing them.",
  },
];
const libraryInternals = { selector: 'Literal[value=/oidc-provider\\/lib\\b/]', message: "Reach into oidc-provider's internals from library-seams.ts only." };

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', '.tools/**', '.data/**', '**/.turbo/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' } },
    rules: {
      // `_name` is a value left out on purpose (`const { secret: _secret, ...shown } = client`).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // `try { json = JSON.parse(text) } catch {}`: an answer that is not JSON keeps the default.
      'no-empty': ['error', { allowEmptyCatch: true }],
      // `let stopped; t.teardown(() => … stopped …); stopped = stack.stop()`: read by a closure before it is set.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Source and scripts (tests may set variables for the processes they start).
    files: ['packages/*/src/**/*.{ts,js}', 'scripts/**/*.{ts,js,mjs}'],
    rules: {
      'no-restricted-syntax': ['error', ...settingsReads],
    },
  },
  {
    // Every SQL statement of the servers and the CLI lives in @heroes/db; test-kit's fixtures write rows as tests do.
    files: ['packages/*/src/**/*.{ts,js}', 'scripts/**/*.{ts,js,mjs}'],
    ignores: ['packages/db/src/**', 'packages/test-kit/src/**'],
    rules: {
      'no-restricted-syntax': ['error', ...settingsReads, ...prismaOutsideDb],
    },
  },
  {
    // http-kit is the bottom library: it knows nothing of heroes or OAuth, and servers depend on it, never the other way.
    files: ['packages/http-kit/src/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@heroes/*', 'oidc-provider', 'oidc-provider/*', '@prisma/*', 'pg', '**/auth-server/**', '**/resource-server/**', '**/platform/**', '**/db/**'], message: 'http-kit imports nothing of this repository and nothing of heroes, OAuth or the database.' }] }],
    },
  },
  {
    // Only the seams file reaches into oidc-provider's internals, so a library upgrade starts there.
    files: ['packages/auth-server/src/**/*.{ts,js}'],
    ignores: ['packages/auth-server/src/**/library-seams.ts'],
    rules: { 'no-restricted-syntax': ['error', ...settingsReads, ...prismaOutsideDb, libraryInternals] },
  },
);
