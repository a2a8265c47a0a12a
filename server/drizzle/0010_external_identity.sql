-- One upstream identity (provider and `sub`, OpenID Connect Core §5.7) is one account. Before this
-- index, a person whose address changed upstream got a second account bound to the same identity.
-- Where a database already holds such pairs, one account keeps the link: the oldest that is enabled
-- (else the oldest), the one relying parties knew first and that the person can still use. The others
-- can no longer be reached by that person, who signs in to the kept one from now on. Each is bound to
-- a subject no provider sends ('duplicate:' and its own id), so that the next person upstream with its
-- address cannot claim it either (linking by address refuses an account bound to another subject),
-- and disabled: the provider refuses a disabled account at every use, so its sessions and refresh
-- tokens stop working (relying parties get no back-channel logout from here). Each is put on record
-- for the administrators, who decide what becomes of it (delete it, or bind it again by hand).
WITH "ranked" AS (
  SELECT "id",
    first_value("id") OVER "same_identity" AS "kept_id",
    row_number() OVER "same_identity" AS "position"
  FROM "account"
  WHERE "external_idp_id" IS NOT NULL AND "external_subject" IS NOT NULL
  WINDOW "same_identity" AS (
    PARTITION BY "external_idp_id", "external_subject"
    ORDER BY "disabled_at" IS NOT NULL, "created_at", "id"
  )
), "unlinked" AS (
  UPDATE "account"
  SET "external_subject" = 'duplicate:' || "account"."id",
    "disabled_at" = coalesce("account"."disabled_at", now()),
    "updated_at" = now()
  FROM "ranked"
  WHERE "account"."id" = "ranked"."id" AND "ranked"."position" > 1
  RETURNING "account"."id", "account"."external_idp_id", "ranked"."kept_id"
)
INSERT INTO "audit_event" ("event", "account_id", "outcome", "detail")
SELECT 'admin', "id", 'success', jsonb_build_object(
  'command', 'migration:unlink-duplicate-identity',
  'providerId', "external_idp_id",
  'keptAccountId', "kept_id"
)
FROM "unlinked";
--> statement-breakpoint
CREATE UNIQUE INDEX "account_external_identity_idx" ON "account" USING btree ("external_idp_id","external_subject") WHERE "account"."external_idp_id" is not null and "account"."external_subject" is not null;
