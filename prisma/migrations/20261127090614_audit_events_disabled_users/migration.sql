-- AlterTable: a disabled user signs in nowhere (auth users disable / enable)
ALTER TABLE "users" ADD COLUMN "disabled_at" TIMESTAMP(3);

-- CreateTable: the audit trail (docs/operations.md, Administration)
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "type" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "username" TEXT,
    "client_id" TEXT,
    "address" TEXT,
    "request_id" TEXT,
    "reason" TEXT,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_at_idx" ON "audit_events"("at");

-- CreateIndex
CREATE INDEX "audit_events_username_idx" ON "audit_events"("username");

-- CreateIndex
CREATE INDEX "audit_events_client_id_idx" ON "audit_events"("client_id");

-- CreateIndex: one keys.rotated per new signing key, however many replicas load it
CREATE UNIQUE INDEX "audit_events_keys_rotated_key" ON "audit_events"("reason") WHERE "type" = 'keys.rotated';
