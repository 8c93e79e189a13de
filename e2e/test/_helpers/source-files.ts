/**
 * The repository's own source and script files, for tests that hold a rule
 * over all of them (the settings tests): `packages/<name>/src` and
 * `scripts/`, TypeScript and JavaScript, without node_modules; not packages/test-kit (code only tests run,
 * which reads the test server's DATABASE_URL as the tests do).
 *
 * Usage: for (const { file, text } of repositorySources()) …
 */
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot } from '@heroes/test-kit';

export interface SourceFile {
  /** From the repository root, with `/`. */
  file: string;
  text: string;
}

export function repositorySources(): SourceFile[] {
  const folders = [...fs.readdirSync(path.join(repoRoot, 'packages')).filter((name) => name !== 'test-kit').map((name) => path.join(repoRoot, 'packages', name, 'src')), path.join(repoRoot, 'scripts')];
  return folders.flatMap(sourceFiles).map((file) => ({ file: path.relative(repoRoot, file).split(path.sep).join('/'), text: fs.readFileSync(file, 'utf8') }));
}

function sourceFiles(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js|mjs|cjs)$/.test(file) && !file.split(path.sep).includes('node_modules'))
    .map((file) => path.join(folder, file));
}
