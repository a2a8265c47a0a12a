import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The drizzle schema: drizzle.config.ts reads this module, and `npm run db:generate -w server`
 * turns its changes into the next SQL migration under server/drizzle/. A table becomes part of the
 * migrations by being exported from here (directly or re-exported from its own module).
 */

/**
 * Secrets the service generates for itself on first start and must keep across restarts and share
 * between instances — in development the cookie-signing secret, so CSRF cookies stay valid.
 */
export const secrets = pgTable('secret', {
  name: text('name').primaryKey(),
  value: text('value').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export * from './tables/index.ts';
