-- Whether the person showed they hold the address, for the ID token's email_verified. Until now
-- every account was reported verified; the accounts that exist keep that, so no relying party sees a
-- claim it relied on turn false overnight. From here on an address only an administrator typed stays
-- unverified until a mailed link is used or an upstream provider vouches for it.
ALTER TABLE "account" ADD COLUMN "email_verified_at" timestamp with time zone;
--> statement-breakpoint
UPDATE "account" SET "email_verified_at" = "created_at";
