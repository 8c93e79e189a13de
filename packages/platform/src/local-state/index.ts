/**
 * `@heroes/platform/local-state`: the data folder (HEROES_DATA_DIR) and the files a process keeps in it, the
 * generated secrets and the running service's runtime file; without the HTTP middleware, for command lines.
 */
export { dataDir, dataDirFrom, resolveDataDir } from './data-dir.ts';
export { readOrCreateSecretFile, readSecretFile } from './secret-file.ts';
export { readRuntimeFile, removeRuntimeFile, runtimeFilePath, writeRuntimeFile, type RuntimeFileState, type RuntimeInfo } from './runtime-file.ts';
export { isProcessAlive } from './process-alive.ts';
