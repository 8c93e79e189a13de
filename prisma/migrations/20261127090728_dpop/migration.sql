-- AlterTable: `auth add-client --require-dpop` (RFC 9449 section 5.2, dpop_bound_access_tokens)
ALTER TABLE "oauth_clients" ADD COLUMN "require_dpop" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable: DPoP proof ids seen (RFC 9449 section 11.1), shared by every replica
CREATE TABLE "dpop_proof_ids" (
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "dpop_proof_ids_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "dpop_proof_ids_expires_at_idx" ON "dpop_proof_ids"("expires_at");
