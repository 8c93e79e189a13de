-- Web origins whose pages may call the token, revoke and introspect endpoints
-- for a client (CORS, docs/oauth.md "Browser origins"). Empty means the
-- origins of its redirect URIs. (No semicolon in comments: the migration
-- runner splits statements on it.)
ALTER TABLE "oauth_clients" ADD COLUMN "allowed_origins" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
