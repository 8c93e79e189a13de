/**
 * Imported first by a test file that starts its own embedded PostgreSQL server: the server's data folder and port
 * are read when @heroes/db and @heroes/embedded-postgres load, so they are set before anything imports them.
 * The folder is removed when the test process exits.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@heroes/test-kit/free-port';

export const privateDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'heroes-private-pg-'));
process.env['HEROES_DATA_DIR'] = privateDataDir;
process.env['EMBEDDED_PG_PORT'] = String(await freePort());
process.once('exit', () => fs.rmSync(privateDataDir, { recursive: true, force: true }));
