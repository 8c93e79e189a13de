/**
 * The whole hero list (GET /heroes without parameters), kept a short time
 * in this process, so that a busy list answers without a query.
 *
 * Rules (docs/performance.md, "List cache"):
 * - a small list is kept as rows: shorter than one batch of the listing
 *   (BATCH_SIZE rows, sent as one buffer); a larger one as its shared
 *   encoding (shared-list-build.ts), joined by the listings that come
 *   while it is fresh;
 * - a write through this process (create, update, delete of a hero) drops
 *   the list once the write is done and before it is answered, and a read
 *   that began before it never stores its rows (a generation count): the
 *   next read on this process sees the write;
 * - kept at most `maxAgeMs` (FIXED.heroListCacheMs, 500 ms) after its
 *   query: a write through another process or replica, or straight in SQL,
 *   is seen by every replica within that time, inside the revocation
 *   bound of 1 s, whether or not any notification arrives;
 * - `maxAgeMs` 0 keeps nothing: cluster workers (WORKERS > 1) share a port,
 *   so a client's next read may reach a sibling that cannot know of the
 *   write yet.
 *
 * Usage:
 *   const cache = new HeroListCache(500);
 *   const heroes = invalidatingWrites(createHeroRepository(pool), cache);
 *   const rows = cache.read() ?? cache.store(cache.generation, await heroes.page(...));
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
