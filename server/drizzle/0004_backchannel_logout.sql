CREATE TABLE "backchannel_logout" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"account_id" text NOT NULL,
	"sid" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"locked_until" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"failed_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "oidc_client" ADD COLUMN "backchannel_logout_uri" text;--> statement-breakpoint
ALTER TABLE "oidc_client" ADD COLUMN "backchannel_logout_session_required" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "backchannel_logout_due_idx" ON "backchannel_logout" USING btree ("delivered_at","failed_at","next_attempt_at");