/**
 * The crash-loop rule of both supervisors (npm start's scripts/start/supervisor.ts, the resource server's cluster
 * primary): a process that dies a 5th time within 60 s is not restarted; they give up and stop.
 */
const DEATHS = 5;
const WITHIN_MS = 60_000;

/** Counts deaths; `died()` records one and says whether they now make a loop. */
export class CrashLoop {
  #deaths: number[] = [];

  died(now = Date.now()): { deaths: number; givesUp: boolean; withinSeconds: number } {
    this.#deaths = [...this.#deaths.filter((at) => now - at < WITHIN_MS), now];
    return { deaths: this.#deaths.length, givesUp: this.#deaths.length >= DEATHS, withinSeconds: WITHIN_MS / 1000 };
  }
}
