/**
 * Whether a PostgreSQL URL leads through a transaction (or statement) pooler
 * such as PgBouncer in `pool_mode = transaction`: there a client owns a server
 * session only for one transaction, so what lives in a session (`LISTEN`,
 * Prisma's session advisory lock) ends up on a server connection no client
 * owns (docs/operations.md, "Connection poolers").
 *
 * The test, on two client connections A and B: A runs a statement (server
 * session S, then released by a transaction pooler); B opens a transaction
 * (a transaction pooler hands it the idle S: PgBouncer reuses the most
 * recently released server); A runs another statement. Direct connections and
 * session pooling give A the same session both times and never give B A's
 * session; a transaction pooler does one or the other.
 *
 * Usage:
 *   if (await isTransactionPooled(url)) refuse('… set DATABASE_DIRECT_URL');
 */
import pg from 'pg';

export interface TransactionPoolingOptions {
  /** Milliseconds to wait for each connection. Default 3000. */
  connectTimeoutMs?: number;
}

export async function isTransactionPooled(url: string, options: TransactionPoolingOptions = {}): Promise<boolean> {
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: options.connectTimeoutMs ?? 3_000 });
    client.on('error', () => {}); // a connection dropped while idle: the next query reports it
    await client.connect();
    return client;
  };
  const clients: pg.Client[] = [];
  try {
    const a = await connect();
    clients.push(a);
    const b = await connect();
    clients.push(b);
    const before = await backendPid(a);
    await b.query('BEGIN');
    try {
      if ((await backendPid(b)) === before) return true;
      return (await backendPid(a)) !== before;
    } finally {
      await b.query('ROLLBACK');
    }
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => {})));
  }
}

async function backendPid(client: pg.Client): Promise<number> {
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return rows[0]!.pid;
}
