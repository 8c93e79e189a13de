-- The grant types a client may use (docs/oauth.md "Grant types per client").
-- Empty means the default of its kind: with a secret password, authorization_code
-- and refresh_token, without one password and authorization_code (the built-in
-- clients have their own, see packages/auth-server/src/clients/grant-types.ts).
-- (No semicolon in comments: the migration runner splits statements on it.)
ALTER TABLE "oauth_clients" ADD COLUMN "grant_types" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
