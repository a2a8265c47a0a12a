-- Two codes of one type issued for an account at the same instant could both stay live. Before the
-- index that forbids it, every code of such a pair but the newest is superseded, as a later issue
-- would have done (server/src/codes/codes.ts).
UPDATE "verification_code" AS "older" SET "superseded_at" = now()
WHERE "older"."consumed_at" IS NULL AND "older"."superseded_at" IS NULL
  AND EXISTS (
    SELECT 1 FROM "verification_code" AS "newer"
    WHERE "newer"."account_id" = "older"."account_id"
      AND "newer"."verification_type" = "older"."verification_type"
      AND "newer"."consumed_at" IS NULL AND "newer"."superseded_at" IS NULL
      AND ("newer"."created_at", "newer"."id") > ("older"."created_at", "older"."id")
  );--> statement-breakpoint
CREATE UNIQUE INDEX "verification_code_one_live_idx" ON "verification_code" USING btree ("account_id","verification_type") WHERE consumed_at is null and superseded_at is null;
