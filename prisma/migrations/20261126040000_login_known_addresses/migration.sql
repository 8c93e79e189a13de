-- CreateTable
CREATE TABLE "login_known_addresses" (
    "subject" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "last_success_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "login_known_addresses_pkey" PRIMARY KEY ("subject","address")
);

-- CreateIndex
CREATE INDEX "login_known_addresses_last_success_at_idx" ON "login_known_addresses"("last_success_at");
