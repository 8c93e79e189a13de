/**
 * Heroes in the `heroes` table, by parameterised SQL on the process's one pool. page(): keyset paging by id (every page
 * costs the same), `nameContains` case-insensitive with `%`, `_`, `\` literal, on the stored lower-case name and its
 * trigram index, sent unnamed so PostgreSQL plans it for the actual pattern (a generic plan could walk the whole
 * table). find, create, update, remove: named statements; update/remove answer undefined/false for an absent hero.
 */
import type { Query, SqlPool as Database } from '../sql-pool.ts';

export interface HeroRow {
  id: number;
  name: string;
}

export interface PageQuery {
  /** Only heroes whose id is greater (0: from the start). */
  after: number;
  /** At most this many rows. */
  limit: number;
  /** Case-insensitive substring of the name; undefined or '' → every hero. */
  nameContains?: string;
}

export interface HeroRepository {
  page(query: PageQuery): Promise<HeroRow[]>;
  find(id: number): Promise<HeroRow | undefined>;
  /** `query`: a transaction's (Database.transaction), else the pool's. */
  create(name: string, query?: Query): Promise<HeroRow>;
  update(id: number, name: string): Promise<HeroRow | undefined>;
  remove(id: number): Promise<boolean>;
}

/** The statements, exported for the query-plan test. */
export const HERO_SQL = {
  page: 'SELECT id, name FROM heroes WHERE id > $1 ORDER BY id LIMIT $2',
  searchPage: `SELECT id, name FROM heroes WHERE name_lower LIKE '%' || lower($3) || '%' AND id > $1 ORDER BY id LIMIT $2`,
  /** The first page of a search: without `id > 0`, a clause PostgreSQL would estimate (a probe of the key) for nothing. */
  searchFirst: `SELECT id, name FROM heroes WHERE name_lower LIKE '%' || lower($2) || '%' ORDER BY id LIMIT $1`,
  find: 'SELECT id, name FROM heroes WHERE id = $1',
  create: 'INSERT INTO heroes (name) VALUES ($1) RETURNING id, name',
  update: 'UPDATE heroes SET name = $2 WHERE id = $1 RETURNING id, name',
  remove: 'DELETE FROM heroes WHERE id = $1',
} as const;

/**
 * Usage:
 *   const heroes = createHeroRepository(database);
 *   await heroes.page({ after: 0, limit: 100, nameContains: 'nar' });
 */
export function createHeroRepository(db: Database): HeroRepository {
  return {
    async page({ after, limit, nameContains }) {
      if (nameContains === undefined || nameContains === '') {
        return (await db.query<HeroRow>({ name: 'heroes-page', text: HERO_SQL.page, values: [after, limit] })).rows;
      }
      const pattern = escapeLike(nameContains);
      if (after === 0) return (await db.query<HeroRow>({ text: HERO_SQL.searchFirst, values: [limit, pattern] })).rows;
      return (await db.query<HeroRow>({ text: HERO_SQL.searchPage, values: [after, limit, pattern] })).rows;
    },
    async find(id) {
      const { rows } = await db.query<HeroRow>({ name: 'heroes-find', text: HERO_SQL.find, values: [id] });
      return rows[0];
    },
    async create(name, query = (config) => db.query(config)) {
      const { rows } = await query<HeroRow>({ name: 'heroes-create', text: HERO_SQL.create, values: [name] });
      return rows[0]!;
    },
    async update(id, name) {
      const { rows } = await db.query<HeroRow>({ name: 'heroes-update', text: HERO_SQL.update, values: [id, name] });
      return rows[0];
    },
    async remove(id) {
      const { rowCount } = await db.query({ name: 'heroes-delete', text: HERO_SQL.remove, values: [id] });
      return rowCount === 1;
    },
  };
}

/** LIKE wildcards and the escape character itself, made literal. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}
