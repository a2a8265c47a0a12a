import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Audit trail (DESIGN §2): one row per security event. Never passwords, codes or session ids.
 * Rows older than 28 days are deleted by a periodic job.
 */
export const auditEvents = pgTable(
  'audit_event',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    event: text('event').notNull(),
    accountId: uuid('account_id'),
    /** The caller's IP address; for the admin CLI how it reached the database ("local socket"). */
    ip: text('ip'),
    /** The caller's User-Agent, or the admin CLI's process user; on admin rows at least. */
    userAgent: text('user_agent'),
    outcome: text('outcome').notNull(),
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>(),
  },
  (table) => [index('audit_event_at_idx').on(table.at)],
);
