/**
 * Whether a URL leads through a transaction (or statement) pooler, where a session lives for one transaction only, so
 * `LISTEN` and session advisory locks land on a connection no client owns (docs/operations.md, "Connection poolers").
 * The test: connection A runs a statement, B opens a transaction, A runs again; directly or through session pooling A
 * keeps its session and B never gets it, a transaction pooler does one or the other.
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
