-- The code a message's link carries: once it is spent or superseded, the message is withdrawn if it is
-- not sent yet (server/src/mail/outbox-repository.ts). Messages queued before name no code and are sent
-- as before, within their links' lifetime.
ALTER TABLE "mail_outbox" ADD COLUMN "code_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_code_id_verification_code_id_fk" FOREIGN KEY ("code_id") REFERENCES "public"."verification_code"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_code_idx" ON "mail_outbox" USING btree ("code_id") WHERE code_id is not null;