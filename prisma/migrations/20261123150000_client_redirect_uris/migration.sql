-- Several redirect URIs per client (RFC 6749 section 3.1.2.2: a client may
-- register several, and the authorization request names the one it wants).
-- Each existing redirect_uri becomes a one-element list. (No semicolon in
-- comments: the migration runner splits statements on it.)
ALTER TABLE "oauth_clients" ADD COLUMN "redirect_uris" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[];
UPDATE "oauth_clients" SET "redirect_uris" = ARRAY["redirect_uri"] WHERE "redirect_uri" IS NOT NULL AND "redirect_uri" <> '';
ALTER TABLE "oauth_clients" DROP COLUMN "redirect_uri";
