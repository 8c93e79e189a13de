/**
 * What `npm test` needs besides Node and PostgreSQL, from Debian: chromium, haproxy, nginx, pgbouncer,
 * docker-compose (config validation only). Each is found, or installed with apt-get when this process may (root,
 * HEROES_NO_INSTALL unset); otherwise one line says what to install before any suite runs. The paths reach the
 * suites as CHROMIUM_PATH, HAPROXY_PATH, NGINX_PATH, PGBOUNCER_PATH and DOCKER_COMPOSE_PATH.
 */
import { spawnSync } from 'node:child_process';
import { chromiumSpec, dockerComposeSpec, findTool, haproxySpec, isExecutable, nginxSpec, pgbouncerSpec, type ToolSpec } from './find-tool.ts';

export class MissingToolError extends Error {}

export interface EnsureOptions {
  env?: NodeJS.ProcessEnv;
  log?: (line: string) => void;
  /** Installs Debian packages; returns false when it could not. */
  install?: (packages: string[]) => boolean;
}

export function mayInstall(env: NodeJS.ProcessEnv): boolean {
  return !env.HEROES_NO_INSTALL && process.getuid?.() === 0 && isExecutable('/usr/bin/apt-get');
}

export function aptInstall(packages: string[]): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'ignore', 'inherit'], env });
  if (update.status !== 0) return false;
  const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: ['ignore', 'ignore', 'inherit'], env });
  return install.status === 0;
}

export function ensureTestTools(options: EnsureOptions = {}): Record<string, string> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((line: string) => console.error(line));
  const specs: ToolSpec[] = [chromiumSpec, haproxySpec, nginxSpec, pgbouncerSpec, dockerComposeSpec];

  for (const spec of specs) {
    const fromEnv = env[spec.envVar];
    if (fromEnv && !isExecutable(fromEnv)) {
      throw new MissingToolError(`${spec.envVar}=${fromEnv} is not an executable file: point it at the ${spec.debianPackage} binary or unset it`);
    }
  }
  const missing = specs.filter((spec) => !findTool(spec, env));
  if (missing.length > 0) {
    const names = missing.map((spec) => spec.debianPackage);
    if (!mayInstall(env)) {
      throw new MissingToolError(`the tests need ${names.join(' and ')}: install Debian's package${names.length > 1 ? 's' : ''} (apt-get install ${names.join(' ')}) or set ${missing.map((s) => s.envVar).join('/')}`);
    }
    log(`test: installing Debian's ${names.join(' and ')} (apt-get)`);
    const installed = (options.install ?? aptInstall)(names);
    const stillMissing = missing.filter((spec) => !findTool(spec, env));
    if (!installed || stillMissing.length > 0) {
      const left = stillMissing.map((spec) => spec.debianPackage).join(' ') || names.join(' ');
      throw new MissingToolError(`could not install ${left} with apt-get: install it by hand (apt-get install ${left}) and run npm test again`);
    }
  }
  const found: Record<string, string> = {};
  for (const spec of specs) found[spec.envVar] = findTool(spec, env)!;
  return found;
}
