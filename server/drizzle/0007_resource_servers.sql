CREATE TABLE "oidc_resource_server" (
	"identifier" text PRIMARY KEY NOT NULL,
	"scopes" jsonb NOT NULL,
	"access_token_ttl" integer NOT NULL,
	"signing_alg" text,
	"client_ids" jsonb,
	"introspection_client_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oidc_client" ADD COLUMN "access_token_format" text DEFAULT 'jwt' NOT NULL;