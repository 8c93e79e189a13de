-- CreateTable: DPoP proof ids seen at the edge (RFC 9449 section 11.1), UNLOGGED: no WAL per claim. Crash recovery
-- and a failover empty both tables, and the claim then refuses every proof that could have been accepted before
-- (packages/db/src/repositories/dpop-edge-proof-ids.ts, docs/oauth.md "Replays").
CREATE UNLOGGED TABLE "dpop_edge_proof_ids" (
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dpop_edge_proof_ids_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "dpop_edge_proof_ids_expires_at_idx" ON "dpop_edge_proof_ids"("expires_at");

-- CreateTable: since when dpop_edge_proof_ids holds every claim (one row, emptied with it)
CREATE UNLOGGED TABLE "dpop_edge_proof_ids_kept_since" (
    "id" BOOLEAN NOT NULL DEFAULT true,
    "since" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dpop_edge_proof_ids_kept_since_pkey" PRIMARY KEY ("id")
);

-- The edge claimed in dpop_proof_ids until now: its live ids come along (ids of the token endpoint never match
-- those of the edge), so the new table has missed no claim.
INSERT INTO "dpop_edge_proof_ids" ("id", "expires_at") SELECT "id", "expires_at" FROM "dpop_proof_ids" WHERE "expires_at" > now();
INSERT INTO "dpop_edge_proof_ids_kept_since" ("id", "since") VALUES (true, '-infinity');
