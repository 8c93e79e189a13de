/**
 * CPU time of the PostgreSQL backends serving the service's database (/proc/<pid>/stat of each, when the server
 * runs on this machine), to print what a load's statements cost there. Backends that connect after the meter
 * starts are not counted: start it once the pools are warm. perRequest() is undefined where it cannot measure.
 */
import fs from 'node:fs';
import type pg from 'pg';
import { cpuMsOf } from './cpu.ts';

export async function meterPostgresCpu(sql: pg.Pool): Promise<{ perRequest(requests: number): number | undefined }> {
  const { rows } = await sql.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  const pids = rows.map((row) => row.pid).filter((pid) => fs.existsSync(`/proc/${pid}/stat`));
  if (pids.length === 0) return { perRequest: () => undefined };
  const read = () => pids.reduce((sum, pid) => {
    try {
      return sum + cpuMsOf(pid);
    } catch {
      return sum; // the backend ended meanwhile (its CPU since the start is lost)
    }
  }, 0);
  const start = read();
  return { perRequest: (requests) => (requests > 0 ? ((read() - start) * 1000) / requests : undefined) };
}
