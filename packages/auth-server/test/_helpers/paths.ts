/**
 * Where things are, for tests that run the package's programs as real
 * processes (src/main.ts, bin/auth.js).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** packages/auth-server */
export const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The monorepo root, where `npx auth` runs. */
export const repoRoot = path.resolve(packageDir, '../..');
