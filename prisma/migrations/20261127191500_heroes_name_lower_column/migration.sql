-- The name search reads a stored lower-case copy of the name: the trigram index
-- is built on it and each candidate the index returns is rechecked against it,
-- so no search lowers a name again (the recheck of about a hundred candidates
-- called lower() on each, about 15 % of PostgreSQL's time per search).
-- docs/performance.md, "search". Prisma's schema language cannot describe a
-- generated column: it is SQL only, like the index.
-- (No semicolons inside comments: the migration runner splits on them.)
ALTER TABLE "heroes" ADD COLUMN "name_lower" TEXT GENERATED ALWAYS AS (lower("name")) STORED;

DROP INDEX "heroes_name_trgm_idx";

-- Without fastupdate, as before: searches read no pending list.
CREATE INDEX "heroes_name_trgm_idx" ON "heroes" USING gin ("name_lower" gin_trgm_ops) WITH (fastupdate = off);
