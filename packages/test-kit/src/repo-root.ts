/**
 * The repository's root folder, for tests and scripts that read its files (this file is
 * packages/test-kit/{src,dist}/repo-root).
 */
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../../..');
