CREATE TABLE "oidc_signing_key" (
	"kid" text PRIMARY KEY NOT NULL,
	"jwk" jsonb NOT NULL,
	"activates_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "oidc_signing_key_activates_idx" ON "oidc_signing_key" USING btree ("activates_at");