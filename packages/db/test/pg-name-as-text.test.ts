// The Prisma CLI's pg client (prisma/pg-name-as-text.ts): the schema engine
// reads `name` columns from pg_catalog, which adapter-pg 6 accepts only as text.
import { PrismaPg } from '@prisma/adapter-pg';
import test from 'ava';
import pg from 'pg';
import { NameAsTextClient } from '../../../prisma/pg-name-as-text.ts';
import { adminUrl } from '@heroes/test-kit';

const NAME_QUERY = "SELECT 'heroes'::name AS table_name, 1::int4 AS n";

test('pooled queries (callbacks) and client queries (promises) report name columns as text', async (t) => {
  const pool = new pg.Pool({ connectionString: adminUrl(), max: 1, Client: NameAsTextClient });
  try {
    const pooled = await pool.query(NAME_QUERY);
    t.deepEqual(pooled.fields.map((field) => field.dataTypeID), [25, 23]);
    t.deepEqual(pooled.rows, [{ table_name: 'heroes', n: 1 }]);
    const client = await pool.connect();
    try {
      const direct = await client.query(NAME_QUERY);
      t.deepEqual(direct.fields.map((field) => field.dataTypeID), [25, 23]);
    } finally {
      client.release();
    }
    const failed = await t.throwsAsync(pool.query('SELECT nothing FROM nowhere'));
    t.is((failed as { code?: string }).code, '42P01');
  } finally {
    await pool.end();
  }
});

test("the driver adapter reads name columns through it, as the migration engine's catalog queries need", async (t) => {
  const pool = new pg.Pool({ connectionString: adminUrl(), max: 1, Client: NameAsTextClient });
  const adapter = await new PrismaPg(pool, { disposeExternalPool: true }).connect();
  try {
    const result = await adapter.queryRaw({ sql: NAME_QUERY, args: [], argTypes: [] });
    t.deepEqual(result.rows, [['heroes', 1]]);
    t.deepEqual(result.columnNames, ['table_name', 'n']);
  } finally {
    await adapter.dispose();
  }
});
