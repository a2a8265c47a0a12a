import { z } from 'zod';
import type { AdminErrorCode } from '../call-errors.ts';
import type { ErrorCode } from '../errors.ts';
import {
  accessTokenFormatField,
  accessTokenTtlField,
  accountIdField,
  clientIdField,
  clientIdListField,
  clientSecretField,
  displayNameField,
  emailField,
  grantTypesField,
  idTokenSigningAlgField,
  jwksField,
  jwksUriField,
  languageField,
  passwordField,
  productNameField,
  redirectUriField,
  resourceIdentifierField,
  resourceScopesField,
  scopesField,
  tokenEndpointAuthMethodField,
  uriListField,
} from './admin-fields.ts';
import { plainText } from './plain-text.ts';

/**
 * The admin HTTP API under /admin/api (DESIGN §1 Provisioning): bodies and answers, written once.
 * The server's admin operations (CLI and API alike) validate with these and answer these shapes;
 * the OpenAPI document is generated from them. Errors are the contract's `{ code, message, field? }`;
 * each call declares its own (not_found, conflict) in `errors`, beside the common ADMIN_REFUSALS.
 */

/** The scope a client-credentials token must carry to call the admin API. */
export const ADMIN_SCOPE = 'keycard:admin';

/** Where the admin API lives; every call's path starts with it. */
export const ADMIN_API_BASE = '/admin/api';

// ---- accounts -------------------------------------------------------------------------------

export const createUserBody = z.strictObject({
  email: emailField,
  name: displayNameField,
  /** Absent: the account has no password until the invitation mailed to it sets one. */
  password: passwordField.optional(),
  /** The language of the account's mail, the invitation's first; absent: see setLanguageBody. */
  language: languageField.optional(),
});

/**
 * The language every mail to the account is written in, whoever causes it (the person, an admin,
 * someone mistyping its password); null: each mail in the language of the request that causes it
 * (the pages the person reads, or English for an admin's).
 */
export const setLanguageBody = z.strictObject({ language: languageField.nullable() });

export const changeEmailBody = z.strictObject({ newEmail: emailField });

export const userIdParams = z.strictObject({ id: accountIdField });
export const findUserQuery = z.strictObject({ email: emailField });

export const accountSummary = z.object({ id: z.string(), email: z.string(), displayName: z.string() });
export type AccountSummary = z.output<typeof accountSummary>;

/** An account as admins see it: its state, never a hash, code or secret. */
export const userView = accountSummary.extend({
  hasPassword: z.boolean(),
  mustChangePassword: z.boolean(),
  disabled: z.boolean(),
  /** The person showed they hold the address (the ID token's email_verified). */
  emailVerified: z.boolean(),
  /** Linked to an upstream identity provider by federation. */
  external: z.boolean(),
  /** The language of its mail; null: the language of the request that sends each (setLanguageBody). */
  language: languageField.nullable(),
  createdAt: z.string(),
});
export type UserView = z.output<typeof userView>;

/**
 * What creating an account did about the first password: `not_needed` when one was given, `queued`
 * when the invitation (VerifyUser mail) is in the outbox, `signs_in_upstream` when the address's
 * domain signs in through an organisation's identity provider, where a local password is never asked.
 */
export const invitationState = z.enum(['not_needed', 'queued', 'signs_in_upstream']);
export type InvitationState = z.output<typeof invitationState>;

export const addUserResult = z.object({
  account: accountSummary,
  hasPassword: z.boolean(),
  invitation: invitationState,
});
export type AddUserResult = z.output<typeof addUserResult>;

/** `changed` is false when the account already was in the asked-for state. */
export const accountChangeResult = z.object({ account: accountSummary, changed: z.boolean() });
export type AccountChangeResult = z.output<typeof accountChangeResult>;

export const unlockResult = z.object({
  account: accountSummary,
  /** A lock was in force when the admin cleared it. */
  wasLocked: z.boolean(),
  /** Consecutive failures the counter held. */
  failuresCleared: z.number().int(),
});
export type UnlockResult = z.output<typeof unlockResult>;

/** The invitation is queued; its link sets the first password within `validHours`. */
export const inviteResult = z.object({ account: accountSummary, validHours: z.number().int() });
export type InviteResult = z.output<typeof inviteResult>;

/** The confirmation went to `newEmail`, the notice to `account.email`; the link works `validHours`. */
export const changeEmailResult = z.object({
  account: accountSummary,
  newEmail: z.string(),
  validHours: z.number().int(),
});
export type ChangeEmailResult = z.output<typeof changeEmailResult>;

/** The account that was deleted, as it was. */
export const deleteUserResult = z.object({ account: accountSummary });
export type DeleteUserResult = z.output<typeof deleteUserResult>;

// ---- OIDC clients ---------------------------------------------------------------------------

/**
 * A client's protocol registration, as the admin API, the admin socket and the CLI take it. Each
 * field stands alone here; which combinations make a working client (e.g. a secret for the
 * client_secret_* methods, redirect URIs for authorization_code) the server checks on the whole
 * registration, for a new client and after a change alike, and refuses naming the field.
 */
const registrationFields = {
  /** Where sign-in returns to; required with the authorization_code grant. */
  redirectUris: uriListField,
  postLogoutUris: uriListField,
  /** Default: authorization_code. */
  grantTypes: grantTypesField,
  /** Default: openid email profile. */
  scopes: scopesField,
  /** Default: client_secret_basic with a secret, none (a public client) without. */
  tokenEndpointAuthMethod: tokenEndpointAuthMethodField,
  /** The client's public keys for private_key_jwt (or jwksUri). */
  jwks: jwksField,
  jwksUri: jwksUriField,
  /** Confidential clients: refuse authorization requests without PKCE. Public clients always must use it. */
  requirePkce: z.boolean({ error: 'must be true or false' }),
  /** Default: the provider's. Must be one its signing keys can make. */
  idTokenSignedResponseAlg: idTokenSigningAlgField,
  /** Default jwt: the format of the client's access tokens for a registered resource server. */
  accessTokenFormat: accessTokenFormatField,
};

/** Registering a relying party. Admin-API clients are made only by the CLI (`client:add --admin`). */
export const registerClientBody = z.strictObject({
  id: clientIdField,
  name: productNameField,
  redirectUris: registrationFields.redirectUris.optional(),
  postLogoutUris: registrationFields.postLogoutUris.optional(),
  /** For the client_secret_* methods; absent: a public client that must use PKCE. */
  secret: clientSecretField.optional(),
  grantTypes: registrationFields.grantTypes.optional(),
  scopes: registrationFields.scopes.optional(),
  tokenEndpointAuthMethod: registrationFields.tokenEndpointAuthMethod.optional(),
  jwks: registrationFields.jwks.optional(),
  jwksUri: registrationFields.jwksUri.optional(),
  requirePkce: registrationFields.requirePkce.optional(),
  idTokenSignedResponseAlg: registrationFields.idTokenSignedResponseAlg.optional(),
  accessTokenFormat: registrationFields.accessTokenFormat.optional(),
  /** Where logout tokens are posted when a session ends (OpenID Connect Back-Channel Logout 1.0). */
  backchannelLogoutUri: redirectUriField.optional(),
  backchannelLogoutSessionRequired: z.boolean().optional(),
});

/**
 * Changing a client: only the fields given change; lists replace the stored lists. `null` removes a
 * value: `secret: null` makes a client_secret_* client public (PKCE), `idTokenSignedResponseAlg:
 * null` returns to the provider's default.
 */
export const updateClientBody = z.strictObject({
  name: productNameField.optional(),
  redirectUris: registrationFields.redirectUris.optional(),
  postLogoutUris: registrationFields.postLogoutUris.optional(),
  secret: clientSecretField.nullable().optional(),
  grantTypes: registrationFields.grantTypes.optional(),
  scopes: registrationFields.scopes.optional(),
  tokenEndpointAuthMethod: registrationFields.tokenEndpointAuthMethod.optional(),
  jwks: registrationFields.jwks.nullable().optional(),
  jwksUri: registrationFields.jwksUri.nullable().optional(),
  requirePkce: registrationFields.requirePkce.optional(),
  idTokenSignedResponseAlg: registrationFields.idTokenSignedResponseAlg.nullable().optional(),
  accessTokenFormat: registrationFields.accessTokenFormat.optional(),
  /** `null`: no more logout tokens. */
  backchannelLogoutUri: redirectUriField.nullable().optional(),
  backchannelLogoutSessionRequired: z.boolean().optional(),
});

export const clientIdParams = z.strictObject({ id: clientIdField });

/** A client as admins see it: its whole registration, never its secret. */
export const clientView = z.object({
  clientId: z.string(),
  productName: z.string(),
  kind: z.enum(['public', 'confidential']),
  /** May obtain client-credentials tokens with the admin scope. */
  admin: z.boolean(),
  redirectUris: z.array(z.string()),
  postLogoutRedirectUris: z.array(z.string()),
  grantTypes: z.array(z.string()),
  scopes: z.array(z.string()),
  tokenEndpointAuthMethod: z.string(),
  jwks: jwksField.nullable(),
  jwksUri: z.string().nullable(),
  /** Authorization requests without PKCE are refused (always so for a public client). */
  requirePkce: z.boolean(),
  /** null: the provider's default algorithm. */
  idTokenSignedResponseAlg: z.string().nullable(),
  /** Its access tokens for a registered resource server: jwt (RFC 9068) or opaque (introspected). */
  accessTokenFormat: accessTokenFormatField,
  /** Null: the client gets no logout tokens. */
  backchannelLogoutUri: z.string().nullable(),
  backchannelLogoutSessionRequired: z.boolean(),
});
export type ClientView = z.output<typeof clientView>;

/** Every registered client, by id (their secrets never). */
export const clientsView = z.object({ clients: z.array(clientView) });
export type ClientsView = z.output<typeof clientsView>;

// ---- resource servers ------------------------------------------------------------------------

/**
 * Registering an API that accepts the provider's access tokens (RFC 8707 resource indicators). Which
 * values work together (an algorithm the keys sign with, clients that exist, an introspection client
 * that can authenticate) the server checks and refuses naming the field.
 */
export const registerResourceServerBody = z.strictObject({
  identifier: resourceIdentifierField,
  scopes: resourceScopesField,
  /** Default 600 (ten minutes). */
  accessTokenTtl: accessTokenTtlField.optional(),
  /** Default: the provider's (the ID-token default). Must be one its signing keys can make. */
  signingAlg: idTokenSigningAlgField.optional(),
  /** Absent: every registered client may ask for it. */
  clientIds: clientIdListField.optional(),
  /** The confidential client the API authenticates as to introspect the opaque tokens issued for it. */
  introspectionClientId: clientIdField.optional(),
});

/** Changing a resource server: only the fields given change; `null` returns a field to its default. */
export const updateResourceServerBody = z.strictObject({
  scopes: resourceScopesField.optional(),
  accessTokenTtl: accessTokenTtlField.optional(),
  signingAlg: idTokenSigningAlgField.nullable().optional(),
  clientIds: clientIdListField.nullable().optional(),
  introspectionClientId: clientIdField.nullable().optional(),
});

/** The identifier in a path, percent-encoded as one segment (e.g. https%3A%2F%2Fapi.example%2F). */
export const resourceServerParams = z.strictObject({ identifier: resourceIdentifierField });

/**
 * A resource server as admins see it. `origin`: registered (admin CLI/API) or environment
 * (RESOURCE_SERVERS, changed only there; a registered one of the same identifier takes its place).
 */
export const resourceServerView = z.object({
  identifier: z.string(),
  origin: z.enum(['registered', 'environment']),
  scopes: z.array(z.string()),
  accessTokenTtl: z.number().int(),
  /** null: the provider's default algorithm. */
  signingAlg: z.string().nullable(),
  /** null: every registered client. */
  clientIds: z.array(z.string()).nullable(),
  introspectionClientId: z.string().nullable(),
});
export type ResourceServerView = z.output<typeof resourceServerView>;

export const resourceServersView = z.object({ resourceServers: z.array(resourceServerView) });
export type ResourceServersView = z.output<typeof resourceServersView>;

// ---- signing keys ---------------------------------------------------------------------------

/**
 * One published signing key of the OpenID provider, never its private part. `state`: next (published,
 * signs from `signsFrom`), current (signs), retired (stopped signing at `signsUntil`, published until
 * `publishedUntil` so the tokens it signed verify until they expire). `origin`: base (OIDC_JWKS, or
 * the generated development keys) or rotation (keys:rotate). Times are ISO 8601, UTC.
 */
export const signingKeyView = z.object({
  kid: z.string(),
  kty: z.enum(['RSA', 'EC', 'OKP']),
  /** The ID-token signing algorithms it serves. */
  algorithms: z.array(z.string()),
  state: z.enum(['next', 'current', 'retired']),
  origin: z.enum(['base', 'rotation']),
  signsFrom: z.string().nullable(),
  signsUntil: z.string().nullable(),
  publishedUntil: z.string().nullable(),
});
export type SigningKeyView = z.output<typeof signingKeyView>;

/** The published keys, those that sign first. */
export const signingKeysView = z.object({ keys: z.array(signingKeyView) });
export type SigningKeysView = z.output<typeof signingKeysView>;

/** keys:rotate's body: without `now` (or with false) the new keys sign after the grace period. */
export const rotateSigningKeysBody = z.strictObject({
  /**
   * A key leaked: the new keys sign at once, without the grace period, also while an earlier
   * rotation still waits to sign (its keys are dropped: they never signed).
   */
  now: z.boolean({ error: 'must be true or false' }).optional(),
});

/** A key's kid as published at /oidc/jwks (OIDC_JWKS sets its own). */
export const signingKeyIdField = plainText({ error: 'is required' })
  .min(1, 'is required')
  .max(512, 'must be at most 512 characters');

/** keys:revoke: the kids of the keys to withdraw. */
export const revokeSigningKeysBody = z.strictObject({
  kids: z
    .array(signingKeyIdField, { error: 'must be a list of kids' })
    .min(1, 'must name at least one key')
    .max(50, 'at most 50 keys'),
});

/**
 * The published keys after a revocation (none of the revoked among them), and what it did: the kids
 * it withdrew, those named that were withdrawn before (nothing changed for them), and the new keys
 * that sign from now on because a withdrawn one signed or waited to.
 */
export const revokedSigningKeysView = signingKeysView.extend({
  revoked: z.array(z.string()),
  alreadyRevoked: z.array(z.string()),
  replacements: z.array(z.string()),
});
export type RevokedSigningKeysView = z.output<typeof revokedSigningKeysView>;

// ---- the calls ------------------------------------------------------------------------------

/**
 * One admin API call: method, path below ADMIN_API_BASE (OpenAPI style, `{id}`), the schemas of its
 * path parameters, query and JSON body, of its answer with the success status, and the error codes
 * it answers besides the common ones (call-errors.ts).
 */
export interface AdminCall {
  readonly method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  readonly path: string;
  readonly summary: string;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  readonly response: z.ZodType;
  readonly status: 200 | 201;
  readonly errors: readonly ErrorCode[];
}

/** An action on the account in the path: not_found when there is none, and its own refusals. */
function userAction<const E extends readonly ErrorCode[]>(
  path: string,
  summary: string,
  response: z.ZodType,
  errors: E,
) {
  return {
    method: 'POST',
    path: `/users/{id}/${path}`,
    summary,
    params: userIdParams,
    response,
    status: 200,
    errors,
  } as const;
}

/** The account and client calls (DESIGN §1 Provisioning). */
export const adminCalls = {
  createUser: {
    method: 'POST',
    path: '/users',
    summary: 'Create an account; without a password an invitation (VerifyUser mail) sets the first one',
    body: createUserBody,
    response: addUserResult,
    status: 201,
    errors: ['conflict'],
  },
  findUser: {
    method: 'GET',
    path: '/users',
    summary: 'Find an account by e-mail address',
    query: findUserQuery,
    response: userView,
    status: 200,
    errors: ['not_found'],
  },
  readUser: {
    method: 'GET',
    path: '/users/{id}',
    summary: 'Read an account',
    params: userIdParams,
    response: userView,
    status: 200,
    errors: ['not_found'],
  },
  deleteUser: {
    method: 'DELETE',
    path: '/users/{id}',
    summary: 'Delete an account, its codes and sessions',
    params: userIdParams,
    response: deleteUserResult,
    status: 200,
    errors: ['not_found'],
  },
  inviteUser: userAction('invite', 'Mail a new invitation whose link sets the first password', inviteResult, [
    'not_found',
    'conflict',
  ]),
  changeEmail: {
    ...userAction(
      'change-email',
      'Mail a confirmation link to the new address and a notice to the old one',
      changeEmailResult,
      ['not_found', 'conflict'],
    ),
    body: changeEmailBody,
  },
  setLanguage: {
    ...userAction(
      'language',
      "Set the language of the account's mail (null: each mail in the language of the request that sends it)",
      accountChangeResult,
      ['not_found'],
    ),
    body: setLanguageBody,
  },
  expirePassword: userAction(
    'expire-password',
    "Make the next sign-in ask for a new password, and end the account's sessions and grants (also when run again)",
    accountChangeResult,
    ['not_found'],
  ),
  unlockUser: userAction('unlock', "Clear the account's failed sign-ins and lock", unlockResult, [
    'not_found',
  ]),
  disableUser: userAction('disable', 'Stop the account from signing in', accountChangeResult, ['not_found']),
  enableUser: userAction('enable', 'Let a disabled account sign in again', accountChangeResult, [
    'not_found',
  ]),
  registerClient: {
    method: 'POST',
    path: '/clients',
    summary: 'Register an OpenID Connect client (a relying party)',
    body: registerClientBody,
    response: clientView,
    status: 201,
    errors: ['conflict'],
  },
  listClients: {
    method: 'GET',
    path: '/clients',
    summary: 'List the registered clients by id (never their secrets)',
    response: clientsView,
    status: 200,
    errors: [],
  },
  readClient: {
    method: 'GET',
    path: '/clients/{id}',
    summary: "Read a client's registration (never its secret)",
    params: clientIdParams,
    response: clientView,
    status: 200,
    errors: ['not_found'],
  },
  updateClient: {
    method: 'PATCH',
    path: '/clients/{id}',
    summary: 'Change a client: any field of its registration; only the fields given change',
    params: clientIdParams,
    body: updateClientBody,
    response: clientView,
    status: 200,
    errors: ['not_found'],
  },
  removeClient: {
    method: 'DELETE',
    path: '/clients/{id}',
    summary:
      'Remove a client: its grants, codes, refresh and stored tokens end with it; refused while a resource server names it, and for an admin client (the CLI removes those)',
    params: clientIdParams,
    response: clientView,
    status: 200,
    errors: ['not_found', 'conflict'],
  },
  registerResourceServer: {
    method: 'POST',
    path: '/resource-servers',
    summary: 'Register a resource server (an API clients may ask access tokens for, RFC 8707)',
    body: registerResourceServerBody,
    response: resourceServerView,
    status: 201,
    errors: ['conflict'],
  },
  listResourceServers: {
    method: 'GET',
    path: '/resource-servers',
    summary: 'List the resource servers: registered ones and those of RESOURCE_SERVERS',
    response: resourceServersView,
    status: 200,
    errors: [],
  },
  readResourceServer: {
    method: 'GET',
    path: '/resource-servers/{identifier}',
    summary: 'Read a resource server (the identifier percent-encoded as one path segment)',
    params: resourceServerParams,
    response: resourceServerView,
    status: 200,
    errors: ['not_found'],
  },
  updateResourceServer: {
    method: 'PATCH',
    path: '/resource-servers/{identifier}',
    summary: 'Change a registered resource server; only the fields given change',
    params: resourceServerParams,
    body: updateResourceServerBody,
    response: resourceServerView,
    status: 200,
    errors: ['not_found'],
  },
  removeResourceServer: {
    method: 'DELETE',
    path: '/resource-servers/{identifier}',
    summary: 'Remove a registered resource server; tokens already issued for it live out their time',
    params: resourceServerParams,
    response: resourceServerView,
    status: 200,
    errors: ['not_found'],
  },
  listSigningKeys: {
    method: 'GET',
    path: '/signing-keys',
    summary: 'List the published signing keys: next, current and retired',
    response: signingKeysView,
    status: 200,
    errors: [],
  },
  rotateSigningKeys: {
    method: 'POST',
    path: '/signing-keys/rotate',
    summary:
      'Add a new signing key for each key type that signs now; it signs after the grace period (with `now`: at once, replacing keys still waiting to sign), and the keys it replaces stay published until the tokens they signed expire; without `now` refused while an earlier rotation waits to sign',
    body: rotateSigningKeysBody,
    response: signingKeysView,
    status: 201,
    errors: ['conflict'],
  },
  revokeSigningKeys: {
    method: 'POST',
    path: '/signing-keys/revoke',
    summary:
      'Withdraw leaked signing keys at once and for good: never published or signing again, on every instance; a withdrawn key that signed or waited to is replaced by new keys that sign at once. Unknown kids are refused; one withdrawn before is reported and left as it is',
    body: revokeSigningKeysBody,
    response: revokedSigningKeysView,
    status: 200,
    errors: ['not_found'],
  },
} as const satisfies Record<string, AdminCall>;

/**
 * The error codes of the upstream-provider calls (DESIGN §1 Federation), besides the common ones. Their
 * schemas live with the server's federation inputs (issuer and domain rules need node:url, which the
 * SPA's bundle must not import), so only their declarations are here.
 */
export const providerCallErrors = {
  addProvider: ['conflict'],
  listProviders: [],
  readProvider: ['not_found'],
  bindDomain: ['not_found', 'conflict'],
  unbindDomain: ['not_found'],
} as const satisfies Record<string, readonly ErrorCode[]>;

export type AdminCallName = keyof typeof adminCalls;
/** The error codes an admin call can answer: its own and the common ones (call-errors.ts). */
export type AdminCallErrorCode<N extends AdminCallName> = AdminErrorCode<(typeof adminCalls)[N]>;
