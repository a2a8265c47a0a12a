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

/**
 * Signing keys withdrawn by keys:revoke (DESIGN §1 signing keys): never published and never signing
 * again, whatever their schedule says. A list rather than a deletion: a key of OIDC_JWKS or the
 * generated development set has no row to delete, and a rotation's row keeps its place in time (the
 * generation before it retired when it began to sign, oidc/key-schedule.ts). Kept for good: a kid
 * named here stays out of the key set even if OIDC_JWKS still holds it.
 */
export const oidcRevokedSigningKeys = pgTable('oidc_revoked_signing_key', {
  kid: text('kid').primaryKey(),
  revokedAt: timestamp('revoked_at', { withTimezone: true }).notNull(),
});
