/**
 * The whole hero list kept a short time in this process (docs/performance.md, "List cache"): as rows when smaller
 * than one batch, else as its shared encoding (shared-list-build.ts). A write through this process drops it before
 * it is answered and an older read never stores (a generation count); kept at most `maxAgeMs` (500 ms, inside the
 * 1 s revocation bound) so other replicas' writes show without any notice; 0 keeps nothing (cluster workers).
 */
import type { HeroRepository, HeroRow } from '@heroes/db/pg';
import type { SharedListBuild } from './shared-list-build.ts';

export class HeroListCache {
  #rows: readonly HeroRow[] | undefined;
  #expiresAt = 0;
  #generation = 0;
  #build: SharedListBuild | undefined;

  constructor(readonly maxAgeMs: number) {}

  /** Changes at every write: take it before the query whose rows you may store. */
  get generation(): number {
    return this.#generation;
  }

  /** The list, while fresh. */
  read(): readonly HeroRow[] | undefined {
    if (this.#rows === undefined) return undefined;
    if (performance.now() < this.#expiresAt) return this.#rows;
    this.#rows = undefined;
    return undefined;
  }

  /**
   * Keeps `rows` (queried after `generation` was taken) unless a write came
   * in between; returns them either way.
   */
  store(generation: number, rows: readonly HeroRow[], startedAt: number): readonly HeroRow[] {
    if (this.maxAgeMs > 0 && generation === this.#generation) {
      this.#rows = rows;
      // Counted from before the query: its snapshot is no older than that.
      this.#expiresAt = startedAt + this.maxAgeMs;
    }
    return rows;
  }

  /**
   * The shared encoding of a larger list (shared-list-build.ts) to join,
   * by the same rules as the small list: begun after the last write
   * through this process and at most `maxAgeMs` ago.
   */
  joinBuild(): SharedListBuild | undefined {
    const build = this.#build;
    if (build === undefined) return undefined;
    if (build.generation === this.#generation && performance.now() < build.startedAt + this.maxAgeMs) return build;
    this.#build = undefined;
    return undefined;
  }

  /** Offers `build` to later listings (kept unless a write came since it began, or nothing is kept). */
  keepBuild(build: SharedListBuild): void {
    if (this.maxAgeMs > 0 && build.generation === this.#generation) this.#build = build;
  }

  /** Stops offering `build` (its first query failed: the next listing tries again). */
  forgetBuild(build: SharedListBuild): void {
    if (this.#build === build) this.#build = undefined;
  }

  invalidate(): void {
    this.#generation++;
    this.#rows = undefined;
    this.#build = undefined;
  }
}

/** `repository`, with every write dropping the cached list when it ends (done or failed: a failed write may still have committed). */
export function invalidatingWrites(repository: HeroRepository, cache: HeroListCache): HeroRepository {
  const after = async <T>(write: Promise<T>): Promise<T> => {
    try {
      return await write;
    } finally {
      cache.invalidate();
    }
  };
  return {
    page: (query) => repository.page(query),
    find: (id) => repository.find(id),
    create: (name, query) => after(repository.create(name, query)),
    update: (id, name) => after(repository.update(id, name)),
    remove: (id) => after(repository.remove(id)),
  };
}
