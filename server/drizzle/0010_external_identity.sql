-- One upstream identity (provider and `sub`, OpenID Connect Core §5.7) is one account. Before this
-- index, a person whose address changed upstream got a second account bound to the same identity.
-- Where a database already holds such pairs, the oldest account keeps the link: it is the one relying
-- parties knew first and the one an administrator's decisions (a disable) were made on. The younger
-- ones can no longer be reached by that person, who signs in to the oldest from now on; they lose the
-- subject and are disabled, so that nobody else can claim them either (an unbound account of a bound
-- domain is linked by its address at the next sign-in upstream). They keep their provider, so no
-- password becomes a way in. Each is put on record for the administrators, who decide what becomes
-- of it (enable, delete).
WITH "ranked" AS (
  SELECT "id",
    first_value("id") OVER "same_identity" AS "kept_id",
    row_number() OVER "same_identity" AS "position"
  FROM "account"
  WHERE "external_idp_id" IS NOT NULL AND "external_subject" IS NOT NULL
  WINDOW "same_identity" AS (PARTITION BY "external_idp_id", "external_subject" ORDER BY "created_at", "id")
), "unlinked" AS (
  UPDATE "account"
  SET "external_subject" = NULL, "disabled_at" = coalesce("account"."disabled_at", now()), "updated_at" = now()
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
