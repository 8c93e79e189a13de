-- Case-insensitive substring search on hero names (GET /heroes?name=x) through
-- a trigram index, so it stays an index lookup as the table grows instead of
-- a scan of every row. pg_trgm ships with PostgreSQL (contrib) and is a
-- trusted extension (PostgreSQL 13+): a role with CREATE on the database may
-- create it, and when the extension is already there nothing is checked.
-- (No semicolons inside comments: the migration runner splits on them.)
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- The repository's search is `lower(name) LIKE lower(pattern)`, which this
-- expression index serves (Prisma's schema language cannot describe it).
CREATE INDEX "heroes_name_trgm_idx" ON "heroes" USING gin (lower("name") gin_trgm_ops);
