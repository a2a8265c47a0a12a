-- Signing keys withdrawn by keys:revoke: never published and never signing again (DESIGN §1 signing
-- keys, server/src/oidc/key-schedule.ts). A key of OIDC_JWKS has no row of its own, so this is a list
-- of kids rather than a deletion.
CREATE TABLE "oidc_revoked_signing_key" (
	"kid" text PRIMARY KEY NOT NULL,
	"revoked_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
-- Every change of the stored signing keys or of the revocations is announced on the channel
-- keycard_signing_keys_changed once its transaction commits, with an empty payload (each instance reads
-- the whole schedule again: server/src/oidc/key-changes.ts), whichever process wrote it (the admin
-- CLI, another instance, a hand-run statement). One notification a statement: PostgreSQL sends the
-- same payload once a transaction.
CREATE FUNCTION keycard_signing_keys_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('keycard_signing_keys_changed', '');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER oidc_signing_key_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON oidc_signing_key
  FOR EACH STATEMENT EXECUTE FUNCTION keycard_signing_keys_changed();
--> statement-breakpoint
CREATE TRIGGER oidc_revoked_signing_key_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON oidc_revoked_signing_key
  FOR EACH STATEMENT EXECUTE FUNCTION keycard_signing_keys_changed();
