import path from 'node:path';

/** The repository's root folder (this file is scripts/repo-root.ts). */
export const repoRoot = path.dirname(import.meta.dirname);
