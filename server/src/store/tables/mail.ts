import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';
import { verificationCodes } from './codes.ts';

/**
 * Mail outbox (DESIGN §2 Mail): written in the same transaction as the code a message carries; a worker
 * delivers with exponential back-off and keeps failures visible.
 */
export const outbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    /**
     * The account the message is about; the message goes with it when it is deleted, unsent or not.
     * Null for a message queued before the column existed.
     */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A worker's claim on the row, so several instances never send the same message twice. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
    /**
     * When the link the message carries stops working (its code's expiry); past it, an unsent message
     * is failed instead of delivering a dead link. Null: the message carries no code.
     */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * When the bodies' links were removed (outbox-repository.ts withoutLinks): at delivery, or once a
     * finished message's code expired. Null: the bodies may still hold them.
     */
    linksRemovedAt: timestamp('links_removed_at', { withTimezone: true }),
    /**
     * The code the message's link carries: once it is spent or superseded, an unsent message is
     * withdrawn (outbox-repository.ts). Null: the message carries no code, or its code was deleted
     * (housekeeping deletes codes only long after they expired, as the message then has).
     */
    codeId: uuid('code_id').references(() => verificationCodes.id, { onDelete: 'set null' }),
  },
  (table) => [
    index('mail_outbox_due_idx').on(table.sentAt, table.failedAt, table.nextAttemptAt),
    // What an account's deletion deletes with it.
    index('mail_outbox_account_idx').on(table.accountId),
    // What the deletion of expired codes looks up (their messages' reference is cleared).
    index('mail_outbox_code_idx').on(table.codeId).where(sql`code_id is not null`),
    // The few finished messages still holding links, which the worker looks at on every pass.
    index('mail_outbox_links_kept_idx')
      .on(table.expiresAt)
      .where(sql`links_removed_at is null and (sent_at is not null or failed_at is not null)`),
  ],
);
