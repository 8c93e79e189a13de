/**
 * The repository's root folder, for the scripts that read its files (this file is scripts/repo-root.ts).
 */
import path from 'node:path';

export const repoRoot = path.dirname(import.meta.dirname);
