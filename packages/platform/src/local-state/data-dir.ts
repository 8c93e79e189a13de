/**
 * Where local state (the embedded PostgreSQL cluster, generated keys and secrets, the runtime file) is kept:
 * HEROES_DATA_DIR (its entry in SHARED_SETTINGS), else `<repo>/.data` (ignored by git). The one place that
 * decides it; always absolute (a relative HEROES_DATA_DIR is taken from the current folder), so messages name
 * the real folder.
 */
import path from 'node:path';
import { readSettings, SHARED_SETTINGS, type Env } from '../settings/index.ts';

/** `<repo>/.data`: this file is packages/platform/{src,dist}/local-state/data-dir. */
const defaultDataDir = path.resolve(import.meta.dirname, '../../../..', '.data');

export function resolveDataDir(env: Env = process.env): string {
  // Read through the catalogue's entry; a value it refuses (blank) is one problem line of the settings check of each process that lists it.
  return dataDirFrom(readSettings({ dataDir: SHARED_SETTINGS.dataDir }, env).values.dataDir);
}

/** The data folder for HEROES_DATA_DIR's parsed value (undefined: unset), for a settings table's computed default. */
export function dataDirFrom(given: string | undefined): string {
  return path.resolve(given ?? defaultDataDir);
}

/** resolveDataDir() of this process's environment. */
export const dataDir = resolveDataDir();
