-- One identifier rule for usernames (docs/oauth.md, section Usernames, packages/text-rules):
-- accounts are unique, and signed in, by the key of their name (RFC 8265
-- UsernameCaseMapped), and no two own one confusable skeleton (UTS #39).
-- The stored username keeps what the user typed.
--
-- Existing rows are mapped right after this migration by mapUsernames
-- (packages/db/src/map-usernames.ts: the rule needs Unicode data that SQL
-- does not have), oldest account first: a row whose key an older row already holds, or whose name
-- breaks the rule, keeps a NULL key (it cannot sign in until an operator
-- renames it), a row whose skeleton an older row holds keeps its key and a
-- NULL skeleton. The indexes are created key first, so a duplicate key is
-- reported as such before its skeleton.
-- (No semicolon in these comments: the migration engine splits the script on them.)
ALTER TABLE "users" ADD COLUMN "username_key" TEXT, ADD COLUMN "username_skeleton" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key_key" ON "users"("username_key");

-- CreateIndex
CREATE UNIQUE INDEX "users_username_skeleton_key" ON "users"("username_skeleton");
