/**
 * Heroes in the `heroes` table, by parameterised SQL on the pg pool (named
 * statements, prepared once per connection).
 * - list: ordered by id; `nameContains` is a case-insensitive substring
 *   match (ILIKE) with `%`, `_` and backslash escaped, so they match literally.
 * - update/remove answer undefined/false when the hero does not exist.
 */
import type { Database } from './create-pool.ts';

export interface HeroRow {
  id: number;
  name: string;
}

export interface HeroRepository {
  list(nameContains?: string): Promise<HeroRow[]>;
  find(id: number): Promise<HeroRow | undefined>;
  create(name: string): Promise<HeroRow>;
  update(id: number, name: string): Promise<HeroRow | undefined>;
  remove(id: number): Promise<boolean>;
}

/**
 * Usage:
 *   const heroes = createHeroRepository(database);
 *   await heroes.list('nar');
 */
export function createHeroRepository(db: Database): HeroRepository {
  return {
    async list(nameContains) {
      if (nameContains === undefined || nameContains === '') {
        return (await db.query<HeroRow>({ name: 'heroes-list', text: 'SELECT id, name FROM heroes ORDER BY id' })).rows;
      }
      const { rows } = await db.query<HeroRow>({
        name: 'heroes-search',
        text: `SELECT id, name FROM heroes WHERE name ILIKE '%' || $1 || '%' ORDER BY id`,
        values: [escapeLike(nameContains)],
      });
      return rows;
    },
    async find(id) {
      const { rows } = await db.query<HeroRow>({ name: 'heroes-find', text: 'SELECT id, name FROM heroes WHERE id = $1', values: [id] });
      return rows[0];
    },
    async create(name) {
      const { rows } = await db.query<HeroRow>({
        name: 'heroes-create',
        text: 'INSERT INTO heroes (name) VALUES ($1) RETURNING id, name',
        values: [name],
      });
      return rows[0]!;
    },
    async update(id, name) {
      const { rows } = await db.query<HeroRow>({
        name: 'heroes-update',
        text: 'UPDATE heroes SET name = $2 WHERE id = $1 RETURNING id, name',
        values: [id, name],
      });
      return rows[0];
    },
    async remove(id) {
      const { rowCount } = await db.query({ name: 'heroes-delete', text: 'DELETE FROM heroes WHERE id = $1', values: [id] });
      return rowCount === 1;
    },
  };
}

/** LIKE wildcards and the escape character itself, made literal. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}
