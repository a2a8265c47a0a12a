import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/**
 * One-time verification codes (DESIGN §2 Codes): only the SHA-256 of the 256-bit code is stored, bound
 * to one account and one verification type; expiry is compared against the database's clock.
 */
export const verificationCodes = pgTable(
  'verification_code',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeHash: text('code_hash').notNull().unique(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    verificationType: smallint('verification_type').notNull(),
    /** Type-specific data, e.g. the new address of an e-mail change. */
    payload: jsonb('payload').$type<Record<string, string>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
    /** Set when a newer code of the same type replaced this one. */
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
  },
  (table) => [
    index('verification_code_account_type_idx').on(table.accountId, table.verificationType),
    // At most one unspent, unsuperseded code of a type per account, whatever runs at the same time:
    // a second issued at once waits for the first and then supersedes it (codes.ts issueCodeUntil).
    uniqueIndex('verification_code_one_live_idx')
      .on(table.accountId, table.verificationType)
      .where(sql`consumed_at is null and superseded_at is null`),
  ],
);
