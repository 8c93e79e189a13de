import path from 'node:path';

/** The repository's root folder (this file is packages/test-kit/{src,dist}/repo-root). */
export const repoRoot = path.resolve(import.meta.dirname, '../../..');
