/**
 * The data step of migration username_keys: each user row gets the key and skeleton of its name (@heroes/text-rules),
 * which SQL cannot compute; runs after `prisma migrate deploy`, never re-reads mapped rows; on a collision the oldest
 * account keeps the name (docs/oauth.md, "Usernames").
 */
import pg from 'pg';
import { prepareUsername } from '@heroes/text-rules/username';

export interface UsernameMapping {
  /** Rows given a key now. */
  mapped: number;
  /** Rows left without a key: the name breaks the rule, or an older account holds its key. They cannot sign in until renamed. */
  unmapped: number;
}

/**
 * Usage: `const { unmapped } = await mapUsernames('postgresql://…')`
 *
 * - oldest first (by id): a key or skeleton an older row holds stays its;
 * - a row whose skeleton is taken keeps its key (it signs in as before)
 *   with a NULL skeleton;
 * - one UPDATE per row, each guarded by the unique indexes, so a
 *   registration running meanwhile cannot produce a duplicate.
 */
export async function mapUsernames(url: string): Promise<UsernameMapping> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number; username: string }>('SELECT id, username FROM users WHERE username_key IS NULL ORDER BY id');
    let mapped = 0;
    for (const row of rows) {
      const prepared = prepareUsername(row.username);
      if (!prepared.ok) continue;
      const { rowCount } = await client.query(
        `UPDATE users SET username_key = $2,
           username_skeleton = CASE WHEN EXISTS (SELECT 1 FROM users WHERE username_skeleton = $3) THEN NULL ELSE $3 END
         WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM users WHERE username_key = $2)`,
        [row.id, prepared.key, prepared.skeleton],
      ).catch((err: unknown) => {
        if ((err as { code?: string }).code === '23505') return { rowCount: 0 }; // taken meanwhile: an older claim won
        throw err;
      });
      mapped += rowCount ?? 0;
    }
    return { mapped, unmapped: rows.length - mapped };
  } finally {
    await client.end();
  }
}
