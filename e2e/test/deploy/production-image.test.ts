/**
 * The production build and its packaging: `npm run build` compiles every
 * package to dist/ (tsc), the compiled servers start and answer without tsx
 * or TypeScript at run time, the Dockerfile builds that output into a
 * non-root image with production dependencies only, and docker-compose.yml
 * wires health checks, restart policies and an unpublished authorization
 * server (validated by `docker-compose config`).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { parse } from 'yaml';
import { repoRoot } from '@heroes/test-kit';
import { createEmptyDatabase } from '@heroes/test-kit';
import { spawnProcess, startOtlpReceiver, waitFor } from '@heroes/test-kit';
import { freePort } from '../_helpers/stack.ts';
import { PRODUCTION_NODE_OPTIONS, PRODUCTION_RUNTIME_ENV } from '../../../scripts/start/production-runtime.ts';

const run = promisify(execFile);
const PACKAGES = ['http-kit', 'platform', 'oauth-scopes', 'text-rules', 'db', 'auth-server', 'resource-server'];

test.serial('npm run build compiles every package, and the compiled servers run without tsx', async (t) => {
  await run('npm', ['run', 'build'], { cwd: repoRoot, timeout: 300_000 });
  for (const name of PACKAGES) t.true(fs.existsSync(path.join(repoRoot, 'packages', name, 'dist/index.js')), name);

  const database = await createEmptyDatabase();
  t.teardown(() => database.drop());
  const authPort = await freePort();
  const port = await freePort();
  // No tsx, and no type stripping: a .ts file reached at run time would fail to load.
  const node = (entry: string): [string, string[]] => [process.execPath, ['--no-experimental-strip-types', '--conditions=production', path.join(repoRoot, entry)]];
  // The image's migration step (docker-compose `migrate`, the Kubernetes init container): the Prisma CLI, offline.
  const migrate = await run(...node('packages/db/dist/migrate-command.js'), { env: { ...process.env, DATABASE_URL: database.url, NODE_OPTIONS: '' }, timeout: 120_000 });
  t.regex(migrate.stderr, /^migrations applied to /m);
  t.notRegex(migrate.stderr + migrate.stdout, /WARNING|will NOT be used|binaries\.prisma\.sh/);
  const env = {
    DATABASE_URL: database.url,
    AUTH_PORT: String(authPort),
    AUTH_HOST: '127.0.0.1',
    PORT: String(port),
    HOST: '127.0.0.1',
    RESOURCE_SERVER_CLIENT_SECRET: 'compiled-secret',
    NODE_ENV: 'production',
    NODE_OPTIONS: '',
  };
  // As the image starts them: register-tracing.js first; the edge exports its spans (compiled SDK set-up).
  const server = (name: string): [string, string[]] => {
    const [command, args] = node(`packages/${name}/dist/main.js`);
    return [command, ['--import', path.join(repoRoot, `packages/${name}/dist/register-tracing.js`), ...args]];
  };
  const receiver = await startOtlpReceiver();
  t.teardown(receiver.close);
  const auth = await spawnProcess(...server('auth-server'), { env, ready: /authorization server listening/, timeoutMs: 60_000 });
  t.teardown(() => auth.stop());
  const tracing = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '50' };
  const edge = await spawnProcess(...server('resource-server'), { env: { ...env, ...tracing }, ready: /resource server listening/, timeoutMs: 60_000 });
  t.teardown(() => edge.stop());
  await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/health/ready`)).status === 200, { intervalMs: 100, message: 'never ready' });
  t.is((await fetch(`http://127.0.0.1:${port}/heroes`)).status, 401);
  const span = await waitFor(() => receiver.spans.find((each) => each.attributes['http.route'] === '/heroes'), { message: 'the compiled edge exported no span' });
  t.is(span.service, 'heroes-resource-server');
  const metadata = await fetch(`http://127.0.0.1:${port}/.well-known/oauth-authorization-server`);
  t.is(metadata.status, 200);
  t.is(await edge.stop('SIGTERM'), 0);
  t.is(await auth.stop('SIGTERM'), 0);
  t.notRegex(auth.output() + edge.output(), /\.ts\b.*(Error|Cannot find)|ERR_UNKNOWN_FILE_EXTENSION/);
});

test('the Dockerfile builds compiled JavaScript into a non-root image with production dependencies only', (t) => {
  const dockerfile = fs.readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  t.true(stages.length >= 3, 'multi-stage');
  const final = stages.at(-1)!;
  t.regex(stages[0]!, /RUN npm run build/);
  t.regex(dockerfile, /npm ci --omit=dev --omit=optional/, 'production dependencies only, no embedded PostgreSQL or Node binary packages');
  t.regex(final, /^USER node$/m);
  t.regex(final, /NODE_OPTIONS=--conditions=production/);
  t.regex(final, /^CMD \["node", "--import", "\.\/packages\/resource-server\/dist\/register-tracing\.js", "packages\/resource-server\/dist\/main\.js"\]$/m);
  t.notRegex(final, /tsx|packages \.\/packages|COPY packages /, 'no TypeScript sources, no tsx at run time');
  for (const name of PACKAGES) {
    t.regex(final, new RegExp(`packages/${name}/dist`), name);
    t.regex(dockerfile, new RegExp(`COPY packages/${name}/package.json`), name);
  }
  // prisma.config.ts (loaded by the Prisma CLI in the migration step) and the files it imports reach the image.
  const config = fs.readFileSync(path.join(repoRoot, 'prisma.config.ts'), 'utf8');
  for (const [, imported] of config.matchAll(/from '\.\/([^/']+)\//g)) t.regex(dockerfile, new RegExp(`COPY --from=build /app/${imported} \\./${imported}`), imported!);
  t.regex(dockerfile, /COPY --from=build [^\n]*\/app\/prisma\.config\.ts/);
  const rootManifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  t.false('tsx' in rootManifest.dependencies, 'tsx is a development dependency');
});

test('npm start and npm run bench run the servers with the image\'s runtime environment (NODE_OPTIONS and the malloc settings)', (t) => {
  const final = fs.readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8').split(/^FROM /m).at(-1)!;
  const env = imageEnv(final);
  t.is(env['NODE_OPTIONS'], PRODUCTION_NODE_OPTIONS);
  const malloc = Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('MALLOC_')));
  t.deepEqual(malloc, { ...PRODUCTION_RUNTIME_ENV });
});

/** The variables of a stage's ENV instruction (`NAME=value`, continued lines, `\ ` for a space). */
function imageEnv(stage: string): Record<string, string> {
  const instruction = /^ENV ((?:.*\\\n)*.*)$/m.exec(stage)?.[1] ?? '';
  const text = instruction.replace(/\\\n\s*/g, ' ');
  return Object.fromEntries([...text.matchAll(/(\w+)=((?:\\ |\S)+)/g)].map(([, name, value]) => [name!, value!.replace(/\\ /g, ' ')]));
}

test('docker-compose.yml: health checks, dependencies on healthy services, restart policies, compiled commands, the authorization server unpublished', async (t) => {
  const file = path.join(repoRoot, 'docker-compose.yml');
  const compose = parse(fs.readFileSync(file, 'utf8'), { merge: true }) as { services: Record<string, Record<string, unknown>> };
  const { services } = compose;
  t.deepEqual(Object.keys(services).sort(), ['auth-server', 'jaeger', 'migrate', 'otel-collector', 'postgres', 'resource-server']);
  for (const name of ['jaeger', 'otel-collector']) t.deepEqual(services[name]!['profiles'], ['tracing'], `${name} runs only with --profile tracing`);
  t.falsy(services['auth-server']!['ports'], 'the authorization server is not published');
  t.deepEqual(services['resource-server']!['ports'], ['8888:8888']);
  for (const name of ['postgres', 'auth-server', 'resource-server']) {
    t.truthy(services[name]!['healthcheck'], `${name} has a health check`);
    t.is(services[name]!['restart'], 'unless-stopped', name);
  }
  t.deepEqual(services['resource-server']!['depends_on'], {
    migrate: { condition: 'service_completed_successfully' },
    'auth-server': { condition: 'service_healthy' },
  });
  t.is((services['auth-server']!['depends_on'] as Record<string, { condition: string }>)['postgres']!.condition, 'service_healthy');
  t.deepEqual(services['migrate']!['command'], ['node', 'packages/db/dist/migrate-command.js']);
  for (const name of ['auth-server', 'resource-server']) {
    t.deepEqual(services[name]!['command'], ['node', '--import', `./packages/${name}/dist/register-tracing.js`, `packages/${name}/dist/main.js`], name);
  }

  // The servers connect as a role that is no superuser; no password has a default.
  const appEnv = services['auth-server']!['environment'] as Record<string, string>;
  t.is(appEnv['DATABASE_URL'], 'postgresql://heroes:${HEROES_DB_PASSWORD:?set HEROES_DB_PASSWORD}@postgres:5432/heroes');
  const postgresEnv = services['postgres']!['environment'] as Record<string, string>;
  t.is(postgresEnv['POSTGRES_USER'], 'postgres', 'the superuser is not the application role');
  t.is(postgresEnv['POSTGRES_PASSWORD'], '${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}');
  t.true((services['postgres']!['volumes'] as string[]).includes('./deploy/docker/create-app-role.sh:/docker-entrypoint-initdb.d/10-create-app-role.sh:ro'));
  const roleScript = fs.readFileSync(path.join(repoRoot, 'deploy/docker/create-app-role.sh'), 'utf8');
  t.regex(roleScript, /CREATE ROLE heroes LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE/);
  t.regex(roleScript, /CREATE DATABASE heroes OWNER heroes/);

  // `npm test` finds or installs docker-compose and names it (scripts/test/ensure-test-tools.ts).
  const composeBin = process.env.DOCKER_COMPOSE_PATH;
  if (!composeBin) return t.fail('DOCKER_COMPOSE_PATH is not set: run the suite through `npm test`, or set it to the docker-compose binary');
  const { stdout } = await run(composeBin, ['-f', file, 'config'], {
    cwd: repoRoot,
    env: { ...process.env, RESOURCE_SERVER_CLIENT_SECRET: 'x', POSTGRES_PASSWORD: 'p', HEROES_DB_PASSWORD: 'h' },
  });
  const resolved = parse(stdout) as { services: Record<string, Record<string, unknown>> };
  t.is(resolved.services['auth-server']!['restart'], 'unless-stopped');
  t.falsy(resolved.services['auth-server']!['ports']);
  t.truthy(resolved.services['resource-server']!['healthcheck']);
  const secrets = { RESOURCE_SERVER_CLIENT_SECRET: 'x', POSTGRES_PASSWORD: 'p', HEROES_DB_PASSWORD: 'h' };
  for (const missing of Object.keys(secrets)) {
    const broken = await run(composeBin, ['-f', file, 'config', '-q'], { cwd: repoRoot, env: { ...process.env, ...secrets, [missing]: '' } }).then(
      () => undefined,
      (err: { code: number }) => err,
    );
    t.is(broken?.code, 1, `a missing ${missing} is refused`);
  }
});
