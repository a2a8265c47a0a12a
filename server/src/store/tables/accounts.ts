import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

/** Local accounts. The e-mail is kept as entered and normalised (trimmed, NFC, lower-case) for lookups. */
export const accounts = pgTable(
  'account',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    emailNormalized: text('email_normalized').notNull().unique(),
    displayName: text('display_name').notNull(),
    firstName: text('first_name').notNull(),
    /** Null until a first password is set (invitation) or for accounts that sign in upstream only. */
    passwordHash: text('password_hash'),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    /** Set by an admin: the next correct sign-in must change the password (DESIGN §2 Login). */
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /**
     * When the person showed they hold the address: a mailed link used (reset, invitation, unlock, a
     * new address confirmed) or an upstream provider vouching for it. Null for an address only an
     * administrator typed; the ID token's email_verified says which.
     */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** 'de' or 'en'; mail is written in this language when known. */
    locale: text('locale'),
    /** Upstream provider and subject when the account was linked or provisioned by federation. */
    externalIdpId: uuid('external_idp_id'),
    externalSubject: text('external_subject'),
    /**
     * How many times every session of the account was ended (a reset, a disable, an unbind, an expiry:
     * endAccountSessionsWithLogout). A finished sign-in records it, and its resume is refused once it
     * has moved on, whatever else changed back meanwhile (a disable undone by an enable, say).
     */
    sessionsEnded: integer('sessions_ended').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // OpenID Connect Core §5.7: only the issuer and `sub` name a person upstream, so one upstream
    // identity is one account; the federation callback finds the account by this pair first.
    uniqueIndex('account_external_identity_idx')
      .on(table.externalIdpId, table.externalSubject)
      .where(sql`${table.externalIdpId} is not null and ${table.externalSubject} is not null`),
  ],
);

/** Earlier password hashes; a reset may not reuse any of the last PASSWORD_HISTORY (DESIGN §2). */
export const passwordHistory = pgTable(
  'password_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('password_history_account_idx').on(table.accountId, table.createdAt)],
);

/**
 * Consecutive sign-in failures per identifier (SHA-256 of the normalised e-mail), kept whether or not
 * an account exists, so the lock neither reveals accounts nor becomes a password oracle (DESIGN §2).
 */
export const loginFailures = pgTable('login_failure', {
  identifierHash: text('identifier_hash').primaryKey(),
  failureCount: integer('failure_count').notNull().default(0),
  lockedAt: timestamp('locked_at', { withTimezone: true }),
  /** Null while locked means locked until unlocked (LOCKOUT_MINUTES = 0). */
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
  /** At most one unlock mail per lock. */
  unlockMailQueuedAt: timestamp('unlock_mail_queued_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().default(sql`now()`),
});
