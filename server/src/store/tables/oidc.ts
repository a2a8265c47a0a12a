import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts.ts';

/** oidc-provider's storage adapter: every model (Session, Interaction, Grant, codes, tokens) by type and id. */
export const oidcPayloads = pgTable(
  'oidc_payload',
  {
    id: text('id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    grantId: text('grant_id'),
    userCode: text('user_code'),
    uid: text('uid'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    consumedAt: timestamp('consumed_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.type, table.id] }),
    index('oidc_payload_grant_idx').on(table.grantId),
    index('oidc_payload_uid_idx').on(table.uid),
    index('oidc_payload_expires_idx').on(table.expiresAt),
  ],
);

/**
 * Registered relying parties; each is one of the provider's own products (no consent screen). The
 * columns are the client's registration as oidc-provider reads it (oidc/clients.ts); which
 * combinations are allowed is checked by provisioning/client-rules.ts before a row is written.
 */
export const oidcClients = pgTable('oidc_client', {
  clientId: text('client_id').primaryKey(),
  productName: text('product_name').notNull(),
  /** For the client_secret_* methods; compared (and, for client_secret_jwt, used as HMAC key) by oidc-provider. */
  clientSecret: text('client_secret'),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  postLogoutRedirectUris: jsonb('post_logout_redirect_uris').$type<string[]>().notNull(),
  /** Every grant the client may use: authorization_code, refresh_token, client_credentials. */
  grantTypes: jsonb('grant_types').$type<string[]>().notNull(),
  /** Space-separated scopes the client may ask for (keycard:admin only for admin clients). */
  scope: text('scope').notNull().default('openid email profile'),
  tokenEndpointAuthMethod: text('token_endpoint_auth_method').notNull().default('none'),
  /** Public keys of a private_key_jwt client, or where it publishes them. */
  jwks: jsonb('jwks').$type<{ keys: Record<string, unknown>[] }>(),
  jwksUri: text('jwks_uri'),
  /** A confidential client opted into PKCE for every authorization request (public clients always use it). */
  requirePkce: boolean('require_pkce').notNull().default(false),
  /** null: the provider's default algorithm. */
  idTokenSignedResponseAlg: text('id_token_signed_response_alg'),
  /** OpenID Connect Back-Channel Logout 1.0: where logout tokens are posted; null: none are sent. */
  backchannelLogoutUri: text('backchannel_logout_uri'),
  /** The client needs `sid` in logout tokens (Back-Channel Logout §2.2). */
  backchannelLogoutSessionRequired: boolean('backchannel_logout_session_required').notNull().default(false),
  /**
   * The format of the client's access tokens for a registered resource (RFC 8707): jwt, an RFC 9068
   * token the API verifies itself; opaque, a stored token the API introspects (RFC 7662). Access
   * tokens without a resource are always opaque (they only reach userinfo).
   */
  accessTokenFormat: text('access_token_format').notNull().default('jwt'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * APIs that accept this provider's access tokens (RFC 8707 resource indicators), registered by the
 * admin CLI/API beside the RESOURCE_SERVERS of the environment; the provider reads them on every
 * token request (oidc/resource-servers.ts), so a change takes effect without a restart.
 */
export const oidcResourceServers = pgTable('oidc_resource_server', {
  /** The `resource` a client asks for, and the access token's `aud`: an absolute URI without a fragment. */
  identifier: text('identifier').primaryKey(),
  /** The scopes the API accepts; a token for it carries those of them the client asked for. */
  scopes: jsonb('scopes').$type<string[]>().notNull(),
  /** Seconds an access token for it lives. */
  accessTokenTtl: integer('access_token_ttl').notNull(),
  /** The JWS algorithm of its JWT access tokens; null: the provider's default. */
  signingAlg: text('signing_alg'),
  /** The clients that may ask for it; null: every registered client. */
  clientIds: jsonb('client_ids').$type<string[]>(),
  /** The confidential client the API authenticates as at the introspection endpoint; null: none. */
  introspectionClientId: text('introspection_client_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A sign-out waiting for the SPA's /api/Logout (SPEC §4): keyed by the SHA-256 of the logoutId. */
export const logoutRequests = pgTable('logout_request', {
  idHash: text('id_hash').primaryKey(),
  sessionId: text('session_id').notNull(),
  accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'cascade' }),
  clientId: text('client_id'),
  postLogoutRedirectUri: text('post_logout_redirect_uri'),
  state: text('state'),
  /**
   * The request carried a valid id_token_hint of this session's account: it signs out without asking.
   * False by default, so a request not known to be vouched for asks (RP-Initiated Logout 1.0 §2).
   */
  hintVerified: boolean('hint_verified').notNull().default(false),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
});

/**
 * Logout tokens waiting to be posted (OpenID Connect Back-Channel Logout 1.0): one row per client of
 * an ended session, written in the transaction that ends it, delivered by a worker with back-off
 * (backchannel/backchannel-worker.ts), so a slow or absent relying party never holds up the person's logout.
 */
export const backchannelLogouts = pgTable(
  'backchannel_logout',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    /** The logout token's `sub`. */
    accountId: text('account_id').notNull(),
    /** The logout token's `sid`: the session's id for this client. */
    sid: text('sid').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    /** A worker's claim on the row, so several instances never post the same token twice at once. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (table) => [index('backchannel_logout_due_idx').on(table.deliveredAt, table.failedAt, table.nextAttemptAt)],
);
