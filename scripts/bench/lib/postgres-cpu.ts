/**
 * CPU time of the PostgreSQL backends that serve the service's database
 * (the servers' pool connections; /proc/<pid>/stat of each backend, read
 * when the server runs on this machine), to print beside a load what its
 * statements cost in the database. Backends that connect after the meter
 * starts are not counted: start it once the servers' pools are warm (a
 * warm-up load first).
 *
 * Usage:
 *   const pgCpu = await meterPostgresCpu(ctx.sql);
 *   ...load...
 *   const usPerRequest = pgCpu.perRequest(result.requests.total); // undefined: not measurable here
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
