-- The name search reads no pending list. With GIN's fastupdate (the default)
-- new entries wait in an unsorted pending list of up to gin_pending_list_limit
-- (4 MB) until a vacuum or autoanalyze merges them, and every search scans all
-- of it: 200,000 heroes just inserted left about 1,000 pending tuples, and the
-- index part of a rare-pattern search took 0.94 ms instead of 0.17 ms.
-- Without fastupdate each hero write updates the index itself (a little slower
-- write, searches stay as cheap as the index). docs/performance.md, "search".
-- (No semicolons inside comments: the migration runner splits on them.)
ALTER INDEX "heroes_name_trgm_idx" SET (fastupdate = off);

-- Entries already pending are merged now (turning fastupdate off keeps them).
SELECT gin_clean_pending_list('heroes_name_trgm_idx'::regclass);
