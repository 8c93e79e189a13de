// One Prisma major across the workspace: the CLI, the client and the pg
// driver adapter are released together, and mixing majors is unsupported
// (docs/operations.md, "Migrations and the Prisma version").
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { repoRoot } from '../src/prisma-folder.ts';

interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

const readJson = <T>(file: string): T => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8')) as T;

/** prisma and @prisma/* (not @prisma/engines-version, which counts engine commits, not releases). */
const isPrismaPackage = (name: string) => (name === 'prisma' || name.startsWith('@prisma/')) && name !== '@prisma/engines-version';

const major = (version: string) => /^\D*(\d+)\./.exec(version)?.[1];

function workspaceManifests(): string[] {
  const { workspaces } = readJson<{ workspaces: string[] }>('package.json');
  const folders = workspaces.flatMap((pattern) =>
    pattern.endsWith('/*')
      ? fs.readdirSync(path.join(repoRoot, pattern.slice(0, -2))).map((name) => path.join(pattern.slice(0, -2), name))
      : [pattern],
  );
  return ['package.json', ...folders.map((folder) => path.join(folder, 'package.json')).filter((file) => fs.existsSync(path.join(repoRoot, file)))];
}

test('every workspace declares prisma, @prisma/client and @prisma/adapter-pg at one exact version', (t) => {
  const declared = new Map<string, string>();
  for (const file of workspaceManifests()) {
    const manifest = readJson<Manifest>(file);
    for (const deps of [manifest.dependencies, manifest.devDependencies, manifest.optionalDependencies, manifest.peerDependencies]) {
      for (const [name, range] of Object.entries(deps ?? {})) if (isPrismaPackage(name)) declared.set(`${file}: ${name}`, range);
    }
  }
  t.true([...declared.keys()].some((key) => key.endsWith(': @prisma/adapter-pg')), 'the adapter is declared');
  const versions = new Set(declared.values());
  // Exact pins: a caret on one of them lets npm pick a newer minor of that one only.
  t.is(versions.size, 1, `declared: ${JSON.stringify(Object.fromEntries(declared), null, 2)}`);
  t.regex([...versions][0]!, /^\d+\.\d+\.\d+$/);
});

test('package-lock.json resolves every Prisma package to one major', (t) => {
  const lock = readJson<{ packages: Record<string, { version?: string }> }>('package-lock.json');
  const resolved = Object.entries(lock.packages)
    .map(([location, entry]) => [location.replace(/^.*node_modules\//, ''), location, entry.version] as const)
    .filter(([name, , version]) => isPrismaPackage(name) && version);
  t.true(resolved.some(([name]) => name === 'prisma'));
  t.true(resolved.some(([name]) => name === '@prisma/client'));
  t.true(resolved.some(([name]) => name === '@prisma/adapter-pg'));
  const majors = new Set(resolved.map(([, , version]) => major(version!)));
  t.is(majors.size, 1, `resolved: ${resolved.map(([, location, version]) => `${location}@${version}`).join(', ')}`);
});
