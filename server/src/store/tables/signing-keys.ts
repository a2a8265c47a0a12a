import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { PrivateSigningJwk } from '../../config-fields.ts';

/**
 * Signing keys made by keys:rotate (DESIGN §1: signing keys live in the database). The keys of one
 * rotation share `activates_at`: published from creation, they sign from then on, and the keys they
 * replace stay published for OIDC_KEY_RETAIN_MINUTES after it (oidc/key-schedule.ts).
 */
export const oidcSigningKeys = pgTable(
  'oidc_signing_key',
  {
    kid: text('kid').primaryKey(),
    /** The private JWK, as oidc-provider takes it. */
    jwk: jsonb('jwk').$type<PrivateSigningJwk>().notNull(),
    activatesAt: timestamp('activates_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('oidc_signing_key_activates_idx').on(table.activatesAt)],
);
