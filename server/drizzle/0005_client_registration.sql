ALTER TABLE "oidc_client" ADD COLUMN "token_endpoint_auth_method" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_client" ADD COLUMN "jwks" jsonb;--> statement-breakpoint
ALTER TABLE "oidc_client" ADD COLUMN "jwks_uri" text;--> statement-breakpoint
ALTER TABLE "oidc_client" ADD COLUMN "require_pkce" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "oidc_client" ADD COLUMN "id_token_signed_response_alg" text;--> statement-breakpoint
-- Registrations made before these columns keep working as they did: a client with a secret sent it
-- with HTTP Basic, a client with redirect URIs used the code flow (grant_types held only the extra
-- grants) and PKCE was required of every client.
UPDATE "oidc_client" SET "token_endpoint_auth_method" = 'client_secret_basic' WHERE "client_secret" IS NOT NULL;--> statement-breakpoint
UPDATE "oidc_client" SET "grant_types" = '["authorization_code"]'::jsonb || "grant_types", "require_pkce" = true WHERE jsonb_array_length("redirect_uris") > 0 AND NOT ("grant_types" @> '["authorization_code"]'::jsonb);
