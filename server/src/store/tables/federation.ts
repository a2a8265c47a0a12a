import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Upstream OpenID Connect providers for home-realm discovery; `id` is the GUID the SPA receives. */
export const upstreamProviders = pgTable('upstream_provider', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  issuer: text('issuer').notNull(),
  clientId: text('client_id').notNull(),
  clientSecret: text('client_secret').notNull(),
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An e-mail domain bound to one upstream provider (lower-case, IDNA ASCII form). */
export const upstreamDomains = pgTable('upstream_domain', {
  domain: text('domain').primaryKey(),
  providerId: uuid('provider_id')
    .notNull()
    .references(() => upstreamProviders.id, { onDelete: 'cascade' }),
});
