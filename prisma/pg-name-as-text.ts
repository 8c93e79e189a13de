// A pg Client that reports PostgreSQL's `name` columns as `text`, for the
// driver adapter of the Prisma CLI only (prisma.config.ts).
//
// Why: `prisma migrate` runs Prisma 6's WebAssembly schema engine through
// @prisma/adapter-pg, and adapter-pg 6.x refuses result columns of type
// `name` (OID 19), which the schema engine reads from pg_catalog on every
// migrate command: "Column type 'name' could not be deserialized from the
// database" (prisma/orm issue 27403). adapter-pg 7 reads them as text, but
// the Prisma 7 CLI needs a native engine downloaded from the internet.
// `name` values arrive as text already; only the type id needs changing.
// Remove this once the workspace moves to a Prisma major that needs no shim
// (docs/operations.md, "Migrations and the Prisma version").
import pg from 'pg';

const NAME_OID = 19;
const TEXT_OID = 25;

type QueryCallback = (err: Error | null, result?: pg.QueryResult) => void;

function nameAsText<T extends pg.QueryResult | undefined>(result: T): T {
  for (const field of result?.fields ?? []) {
    if (field.dataTypeID === NAME_OID) field.dataTypeID = TEXT_OID;
  }
  return result;
}

export class NameAsTextClient extends pg.Client {
  // pg-pool calls query() with a callback, adapter-pg's transactions without one (a promise).
  override query(...args: unknown[]): never {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = ((err, result) => (callback as QueryCallback)(err, err ? result : nameAsText(result))) satisfies QueryCallback;
    }
    const returned: unknown = (super.query as (...a: unknown[]) => unknown)(...args);
    return (returned instanceof Promise ? returned.then(nameAsText) : returned) as never;
  }
}
