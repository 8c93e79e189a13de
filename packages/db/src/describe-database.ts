/**
 * How a database is named to an operator: name, host and port of its URL, never the user or password.
 * Usage: describeDatabase('postgresql://u:pw@db:5432/heroes') → 'database "heroes" at db:5432'
 */
export function describeDatabase(url: string): string {
  try {
    const parsed = new URL(url);
    const name = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || 'postgres';
    return `database "${name}" at ${databaseAddress(url)}`;
  } catch {
    return 'the configured database';
  }
}

/** `host:port` of a PostgreSQL URL, the only part of its location that is ever printed. */
export function databaseAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`;
  } catch {
    return 'the configured address';
  }
}
