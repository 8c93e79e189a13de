/**
 * One encoding of the whole hero list shared by every full listing while fresh (docs/performance.md, "List cache"):
 * read in keyset batches once, each encoded (and gzipped, once a reader wants it) once; every reader streams the
 * same bytes, JSON.stringify(list) exactly, from the start at its own pace, all readers together within the
 * process's budget per turn of the event loop. A database failure mid-build destroys every reader's stream (a
 * truncated transfer, never a short valid array).
 */
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { HeroRow } from '@heroes/db/pg';
import { TurnBudget } from './turn-budget.ts';

/**
 * Listing bytes handed to sockets per turn of the event loop, all listings together (turn-budget.ts): 1 MiB is
 * 2–3 ms of socket writes on the 2-core development machine, about 20 identity chunks (a batch of 1,000 heroes
 * each) or 64 gzip chunks (zlib's 16 KiB).
 */
const LISTING_BYTES_PER_TURN = 1024 * 1024;
const listingTurns = new TurnBudget(LISTING_BYTES_PER_TURN);

/** Chunks appended by one writer, read from the start by any number of readers. */
class ChunkLog {
  readonly chunks: Buffer[] = [];
  done = false;
  failure: Error | undefined;
  #waiting: Array<() => void> = [];

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.#wake();
  }

  end(failure?: Error): void {
    this.done = true;
    this.failure = failure;
    this.#wake();
  }

  #wake(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const wake of waiting) wake();
  }

  /** A stream of every chunk from the first; `turns`: the budget it asks before each chunk (none: unpaced). */
  reader(turns?: TurnBudget): Readable {
    let next = 0;
    const stream = new Readable({
      read: () => {
        const pump = (): void => {
          if (stream.destroyed) return;
          while (next < this.chunks.length) {
            if (turns && !turns.take(this.chunks[next]!.length, pump)) return;
            if (!stream.push(this.chunks[next++])) return;
          }
          if (this.failure) stream.destroy(this.failure);
          else if (this.done) stream.push(null);
          else this.#waiting.push(pump);
        };
        pump();
      },
    });
    return stream;
  }
}

export class SharedListBuild {
  readonly #identity = new ChunkLog();
  #gzip: ChunkLog | undefined;
  #settleFirst: { resolve(rows: readonly HeroRow[]): void; reject(err: unknown): void } | undefined;
  /** The first batch (rejects when its query fails). */
  readonly first = new Promise<readonly HeroRow[]>((resolve, reject) => {
    this.#settleFirst = { resolve, reject };
  });

  /**
   * `generation`: the list cache's when the build began; `startedAt`: performance.now() before its first query;
   * `turns`: what paces its readers (one budget for the process, so all listings together stay within it).
   */
  constructor(readonly generation: number, readonly startedAt: number, readonly turns: TurnBudget = listingTurns) {}

  /** Reads the list batch by batch (`nextBatch(0)` first), encoding each as it comes, when the first is full. */
  async run(nextBatch: (afterId: number) => Promise<readonly HeroRow[]>, batchSize: number): Promise<void> {
    let first: readonly HeroRow[];
    try {
      first = await nextBatch(0);
    } catch (err) {
      this.#settleFirst!.reject(err);
      return;
    }
    this.#settleFirst!.resolve(first);
    if (first.length < batchSize) return;
    try {
      let batch = first;
      let prefix = '[';
      for (;;) {
        this.#identity.push(Buffer.from(prefix + batch.map((row) => JSON.stringify({ id: row.id, name: row.name })).join(','), 'utf8'));
        prefix = ',';
        if (batch.length < batchSize) break;
        batch = await nextBatch(batch[batch.length - 1]!.id);
        if (batch.length === 0) break;
      }
      this.#identity.push(Buffer.from(']'));
      this.#identity.end();
    } catch (err) {
      this.#identity.end(err instanceof Error ? err : new Error(String(err)));
    }
  }

  /** A stream of the list's bytes (gzip-compressed when `gzip`), from the start. */
  reader(gzip: boolean): Readable {
    return (gzip ? this.#gzipped() : this.#identity).reader(this.turns);
  }

  #gzipped(): ChunkLog {
    if (this.#gzip) return this.#gzip;
    const log = new ChunkLog();
    this.#gzip = log;
    const zip = createGzip();
    zip.on('data', (chunk: Buffer) => log.push(chunk));
    zip.on('end', () => log.end());
    zip.on('error', (err) => log.end(err));
    const source = this.#identity.reader();
    source.on('error', (err) => {
      log.end(err);
      zip.destroy();
    });
    source.pipe(zip);
    return log;
  }
}
