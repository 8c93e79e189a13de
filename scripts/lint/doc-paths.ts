/**
 * Every repository path docs/*.md and the READMEs name exists: `packages/…`, `scripts/…`, `deploy/…` and the like,
 * backticked relative paths (from the file's folder, a package or its src/, the root, or oidc-provider's folder) and
 * relative link targets. Part of `npm run lint`; prints the missing ones and exits 1.
 */
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');
const TOP = /(?<![\w./@-])((?:packages|scripts|deploy|e2e|prisma|docs)\/[\w./*-]*)/g;
const BACKTICKED = /`([\w.-]+(?:\/[\w.-]+)+\/?)`/g;
const LINK = /\]\(([^)\s#]+)(?:#[^)]*)?\)/g;

function markdownFiles(): string[] {
  const docs = fs.readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`);
  const packages = fs.readdirSync(path.join(root, 'packages')).map((name) => `packages/${name}/README.md`);
  return ['README.md', ...docs, ...packages].filter((file) => fs.existsSync(path.join(root, file)));
}

/**
 * A glob (`packages/*\/src`) names a folder that exists; a path exists as a file or a folder;
 * a build output (`packages/x/dist/main.js`) exists when its source (`packages/x/src/main.ts`) does,
 * so the check holds on a fresh clone before anything is built.
 */
function exists(candidate: string): boolean {
  const fixed = candidate.split('*')[0]!;
  if (fs.existsSync(path.join(root, fixed))) return true;
  const built = /^(.*)\/dist\/(.*)\.js$/.exec(fixed);
  return built !== null && fs.existsSync(path.join(root, `${built[1]}/src/${built[2]}.ts`));
}

/** Where a backticked relative path may start: oidc-provider's files are named by the auth server's seams. */
function bases(folder: string): string[] {
  const packages = fs.readdirSync(path.join(root, 'packages')).flatMap((name) => [`packages/${name}`, `packages/${name}/src`]);
  return [folder, `${folder}/src`, '.', 'packages', 'e2e', ...packages, 'node_modules/oidc-provider'];
}

/** The paths `file` names that exist nowhere they could mean. */
export function missingPaths(file: string, text: string): string[] {
  const folder = path.dirname(file);
  const missing = new Set<string>();
  const strip = (name: string) => name.replace(/[.,:;]+$/, '');
  for (const [, named] of text.matchAll(TOP)) {
    const name = strip(named!);
    if (!exists(name)) missing.add(name);
  }
  for (const [, named] of text.matchAll(BACKTICKED)) {
    const name = strip(named!);
    if (/^(?:packages|scripts|deploy|e2e|prisma|docs)\//.test(name) || !/\.\w+$|\/$/.test(name)) continue; // checked above; not a file or folder
    if (!bases(folder).some((base) => exists(path.join(base, name)))) missing.add(name);
  }
  for (const [, target] of text.matchAll(LINK)) {
    if (/^[a-z]+:/i.test(target!) || target!.startsWith('/')) continue;
    if (!exists(path.join(folder, target!))) missing.add(target!);
  }
  return [...missing];
}

if (import.meta.main) {
  const problems = markdownFiles().flatMap((file) => missingPaths(file, fs.readFileSync(path.join(root, file), 'utf8')).map((name) => `${file}: ${name} does not exist`));
  for (const line of problems) console.error(line);
  process.exit(problems.length > 0 ? 1 : 0);
}
