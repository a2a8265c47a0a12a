-- The account a message is about: deleting the account deletes its mail too, unsent or not, so
-- nothing is mailed, nor kept, for an account that is gone (server/src/mail/outbox.ts).
ALTER TABLE "mail_outbox" ADD COLUMN "account_id" uuid;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_account_id_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."account"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_outbox_account_idx" ON "mail_outbox" USING btree ("account_id");--> statement-breakpoint
-- Mail queued before: the account whose address it went to. A confirmation sent to a new address not
-- yet confirmed names nobody's and stays without an account.
UPDATE "mail_outbox" SET "account_id" = "account"."id" FROM "account" WHERE "account"."email" = "mail_outbox"."recipient";
