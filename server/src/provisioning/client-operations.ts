import { type AccessTokenFormat, SECRET_AUTH_METHODS, type TokenEndpointAuthMethod } from '@keycard/contract';
import { recordAudit } from '../audit/audit-log.ts';
import { dropPendingLogouts } from '../backchannel/backchannel-repository.ts';
import { InputError } from '../errors/input-error.ts';
import { parseInput } from '../errors/parse-input.ts';
import { ConflictError, NotFoundError } from '../errors/service-error.ts';
import {
  type ClientRow,
  deleteClient,
  deleteClientPayloads,
  findClient,
  findClientForUpdate,
  forgetClientInSessions,
  insertClient,
  listClientRows,
  resourceServersNaming,
  revokeClientCredentials,
  revokeRedeemableByClient,
  updateClientRow,
  withholdLogoutRedirects,
} from '../oidc/oidc-repository.ts';
import type { Db } from '../store/database.ts';
import { retriedTransaction } from '../store/retried-transaction.ts';
import { checkRegistration, type Registration } from './client-rules.ts';
import {
  ADMIN_CLIENT_SCOPE,
  type AddClientInput,
  addClientInput,
  type ClientIdInput,
  type ClientsView,
  type ClientView,
  clientIdInput,
  type ListClientsInput,
  listClientsInput,
  type UpdateClientInput,
  updateClientInput,
} from './client-schemas.ts';
import { signingAlgorithmsNow } from './key-operations.ts';
import { actorDetail, originColumns } from './provisioning-audit.ts';
import type { ProvisioningDeps } from './provisioning-deps.ts';

export function isAdminClient(row: Pick<ClientRow, 'scope'>): boolean {
  return row.scope.split(' ').includes(ADMIN_CLIENT_SCOPE);
}

/** What a new client may ask for unless it says otherwise: an ID token with e-mail and name. */
const DEFAULT_SCOPES = ['openid', 'email', 'profile'];

const usesSecret = (method: TokenEndpointAuthMethod) => SECRET_AUTH_METHODS.includes(method);

function registrationOf(row: ClientRow): Registration {
  return {
    admin: isAdminClient(row),
    redirectUris: row.redirectUris,
    postLogoutUris: row.postLogoutRedirectUris,
    secret: row.clientSecret,
    grantTypes: row.grantTypes,
    scopes: row.scope.split(' '),
    tokenEndpointAuthMethod: row.tokenEndpointAuthMethod as TokenEndpointAuthMethod,
    jwks: row.jwks as Registration['jwks'],
    jwksUri: row.jwksUri,
    requirePkce: row.requirePkce,
    idTokenSignedResponseAlg: row.idTokenSignedResponseAlg,
    backchannelLogoutUri: row.backchannelLogoutUri,
    backchannelLogoutSessionRequired: row.backchannelLogoutSessionRequired,
    // Rows of admin clients from before formats could be chosen hold the column's default.
    accessTokenFormat: isAdminClient(row) ? 'opaque' : (row.accessTokenFormat as AccessTokenFormat),
  };
}

/** The columns of a registration; the lists without repeats, in the order given. */
function columnsOf(registration: Registration) {
  return {
    clientSecret: registration.secret,
    redirectUris: [...new Set(registration.redirectUris)],
    postLogoutRedirectUris: [...new Set(registration.postLogoutUris)],
    grantTypes: [...registration.grantTypes],
    scope: registration.scopes.join(' '),
    tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
    jwks: registration.jwks,
    jwksUri: registration.jwksUri,
    requirePkce: registration.requirePkce,
    idTokenSignedResponseAlg: registration.idTokenSignedResponseAlg,
    backchannelLogoutUri: registration.backchannelLogoutUri,
    backchannelLogoutSessionRequired: registration.backchannelLogoutSessionRequired,
    accessTokenFormat: registration.accessTokenFormat,
  };
}

function viewOf(row: ClientRow): ClientView {
  const registration = registrationOf(row);
  return {
    clientId: row.clientId,
    productName: row.productName,
    kind: registration.tokenEndpointAuthMethod === 'none' ? 'public' : 'confidential',
    admin: registration.admin,
    redirectUris: row.redirectUris,
    postLogoutRedirectUris: row.postLogoutRedirectUris,
    grantTypes: row.grantTypes,
    scopes: [...registration.scopes],
    tokenEndpointAuthMethod: registration.tokenEndpointAuthMethod,
    jwks: registration.jwks,
    jwksUri: row.jwksUri,
    requirePkce: registration.tokenEndpointAuthMethod === 'none' || row.requirePkce,
    idTokenSignedResponseAlg: row.idTokenSignedResponseAlg,
    backchannelLogoutUri: row.backchannelLogoutUri,
    backchannelLogoutSessionRequired: row.backchannelLogoutSessionRequired,
    accessTokenFormat: registration.accessTokenFormat,
  };
}

function noClient(id: string): NotFoundError {
  return new NotFoundError(`no client with the id ${id}`);
}

/**
 * The algorithms an ID-token algorithm given now must be among (client-rules.ts); read only when one
 * is given, and before any transaction (see signingAlgorithmsNow).
 */
async function algorithmsFor(
  deps: ProvisioningDeps,
  alg: string | null | undefined,
): Promise<readonly string[] | undefined> {
  return typeof alg === 'string' ? await signingAlgorithmsNow(deps) : undefined;
}

/** A new client's registration: what it asks for, the defaults for the rest. */
function newRegistration(input: ReturnType<typeof addClientInput.parse>): Registration {
  const admin = input.admin === true;
  const secret = input.secret ?? null;
  const keys = input.jwks !== undefined || input.jwksUri !== undefined;
  const method =
    input.tokenEndpointAuthMethod ??
    (secret !== null ? 'client_secret_basic' : keys ? 'private_key_jwt' : 'none');
  return {
    admin,
    redirectUris: input.redirectUris ?? [],
    postLogoutUris: input.postLogoutUris ?? [],
    secret,
    grantTypes: input.grantTypes ?? (admin ? ['client_credentials'] : ['authorization_code']),
    scopes: admin ? [ADMIN_CLIENT_SCOPE] : (input.scopes ?? DEFAULT_SCOPES),
    tokenEndpointAuthMethod: method,
    jwks: input.jwks ?? null,
    jwksUri: input.jwksUri ?? null,
    requirePkce: input.requirePkce ?? method === 'none',
    idTokenSignedResponseAlg: input.idTokenSignedResponseAlg ?? null,
    backchannelLogoutUri: input.backchannelLogoutUri ?? null,
    backchannelLogoutSessionRequired: input.backchannelLogoutSessionRequired ?? false,
    // An admin client's tokens are looked up by the admin API, so they stay opaque.
    accessTokenFormat: input.accessTokenFormat ?? (admin ? 'opaque' : 'jwt'),
  };
}

/** The audit row of a client command: the command, the client and `detail` (never a secret), and who asked. */
function auditClientCommand(
  tx: Db,
  deps: ProvisioningDeps,
  command: string,
  clientId: string,
  detail: Record<string, string | number | boolean | null>,
): Promise<void> {
  return recordAudit(tx, {
    event: 'admin',
    outcome: 'success',
    ...originColumns(deps),
    detail: actorDetail(deps, { command, clientId, ...detail }),
  });
}

/**
 * Registers a relying party (DESIGN §1: every client is one of the provider's own products, so there
 * is no consent screen). Without a secret or keys the client is public and must use PKCE. An admin
 * client may only obtain client-credentials tokens, and only it may ask for the admin scope.
 */
export async function addClient(deps: ProvisioningDeps, input: AddClientInput): Promise<ClientView> {
  const parsed = parseInput(addClientInput, input);
  const registration = newRegistration(parsed);
  checkRegistration(registration, await algorithmsFor(deps, registration.idTokenSignedResponseAlg));
  // Run again after a conflict with a transaction on the same rows (what a removed client of this id
  // left, ended by a sign-out meanwhile).
  return retriedTransaction(deps.db, async (tx) => {
    const row = await insertClient(tx, {
      clientId: parsed.id,
      productName: parsed.name,
      // oidc-provider compares client_secret_basic/post credentials with the stored value itself.
      ...columnsOf(registration),
    });
    if (!row) throw new ConflictError(`a client with the id ${parsed.id} already exists`, 'id');
    // A new client starts with nothing: not even what a removed one of this id might have left.
    await endIssuedTo(tx, parsed.id);
    const view = viewOf(row);
    await auditClientCommand(tx, deps, 'client:add', parsed.id, {
      kind: view.kind,
      admin: view.admin,
      // Named so the audit writer's secret filter (by key name) keeps it: it is a method, not a secret.
      authentication: view.tokenEndpointAuthMethod,
      grantTypes: view.grantTypes.join(' '),
      scope: view.scopes.join(' '),
    });
    return view;
  });
}

/**
 * A stored registration with a change applied. A secret given or taken away without a method keeps
 * the meaning it had before methods could be chosen (client_secret_basic, or public); the credential
 * of a method no longer used goes with it, and a key source given replaces the other.
 */
function changedRegistration(
  current: Registration,
  change: Omit<ReturnType<typeof updateClientInput.parse>, 'id' | 'name'>,
): Registration {
  let method = change.tokenEndpointAuthMethod ?? current.tokenEndpointAuthMethod;
  if (change.tokenEndpointAuthMethod === undefined && change.secret !== undefined) {
    if (change.secret === null && usesSecret(method)) method = 'none';
    if (change.secret !== null && method === 'none') method = 'client_secret_basic';
  }
  const keyed = method === 'private_key_jwt';
  return {
    admin: current.admin,
    redirectUris: change.redirectUris ?? current.redirectUris,
    postLogoutUris: change.postLogoutUris ?? current.postLogoutUris,
    secret: change.secret !== undefined ? change.secret : usesSecret(method) ? current.secret : null,
    grantTypes: change.grantTypes ?? current.grantTypes,
    scopes: change.scopes ?? current.scopes,
    tokenEndpointAuthMethod: method,
    jwks: change.jwks !== undefined ? change.jwks : keyed && !change.jwksUri ? current.jwks : null,
    jwksUri: change.jwksUri !== undefined ? change.jwksUri : keyed && !change.jwks ? current.jwksUri : null,
    requirePkce: change.requirePkce ?? (method === 'none' ? true : current.requirePkce),
    idTokenSignedResponseAlg:
      change.idTokenSignedResponseAlg !== undefined
        ? change.idTokenSignedResponseAlg
        : current.idTokenSignedResponseAlg,
    backchannelLogoutUri:
      change.backchannelLogoutUri !== undefined ? change.backchannelLogoutUri : current.backchannelLogoutUri,
    backchannelLogoutSessionRequired:
      change.backchannelLogoutSessionRequired ?? current.backchannelLogoutSessionRequired,
    accessTokenFormat: change.accessTokenFormat ?? current.accessTokenFormat,
  };
}

/** The columns that hold how a client authenticates. */
const CREDENTIAL_COLUMNS = ['clientSecret', 'tokenEndpointAuthMethod', 'jwks', 'jwksUri'];

/** The columns whose value differs, in column order: what the audit log names (never the values). */
function changedColumns(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
}

/**
 * Changes a registered client: only the fields given change, lists replace. The result must still be
 * a working client (client-rules.ts); an admin client keeps its shape: confidential, client
 * credentials only, the admin scope.
 */
export async function updateClient(deps: ProvisioningDeps, input: UpdateClientInput): Promise<ClientView> {
  const { id, name, ...change } = parseInput(updateClientInput, input);
  const signingAlgorithms = await algorithmsFor(deps, change.idTokenSignedResponseAlg);
  const view = await deps.db.transaction(async (tx) => {
    const row = await findClientForUpdate(tx, id);
    if (!row) throw noClient(id);
    const current = registrationOf(row);
    if (current.admin && change.scopes !== undefined) {
      throw new InputError(`an admin client's scope is ${ADMIN_CLIENT_SCOPE}`, 'scopes');
    }
    const registration = changedRegistration(current, change);
    checkRegistration(registration, signingAlgorithms);
    const before = { productName: row.productName, ...columnsOf(current) };
    const after = { productName: name ?? row.productName, ...columnsOf(registration) };
    const updated = await updateClientRow(tx, id, after);
    if (!updated) throw noClient(id);
    const changed = changedColumns(before, after);
    // Whoever held the old credential is out: the client-credentials tokens it obtained end too.
    if (change.secret !== undefined || changed.some((column) => CREDENTIAL_COLUMNS.includes(column))) {
      await revokeClientCredentials(tx, id);
    }
    // Made public: a code or refresh token it was given while it authenticated would now be redeemed
    // by whoever holds it, with no credential asked (a leaked one included), and a sign-in it began
    // without PKCE would end in such a code; they all end.
    const madePublic =
      current.tokenEndpointAuthMethod !== 'none' && registration.tokenEndpointAuthMethod === 'none';
    const ended = madePublic ? await revokeRedeemableByClient(tx, id) : 0;
    // Which fields changed, never their values: the secret must not reach the log.
    await auditClientCommand(tx, deps, 'client:update', id, {
      changed: changed.join(','),
      ...(madePublic ? { ended } : {}),
    });
    return viewOf(updated);
  });
  // Committed: this instance's next request reads the new registration (read your own writes).
  deps.clientCache?.forget(id);
  return view;
}

/**
 * Ends whatever is stored as issued to a client id: its payloads (grants, codes, tokens, sign-ins in
 * progress), its entries in sessions, the logout tokens not yet posted to it and the redirects back
 * to it of its sign-outs. Run when a client is removed, and again when an id is registered, for what
 * a request under way during a removal (on this instance or another) may still have written under it.
 */
async function endIssuedTo(tx: Db, clientId: string) {
  return {
    revoked: await deleteClientPayloads(tx, clientId),
    // Sessions that forgot it (a key named so the audit writer's secret filter keeps it).
    unlinked: await forgetClientInSessions(tx, clientId),
    undelivered: await dropPendingLogouts(tx, clientId),
    signOuts: await withholdLogoutRedirects(tx, clientId),
  };
}

/**
 * client:remove: the client is gone at once, on every instance with its next request. What it was
 * given goes with it (its grants, codes, refresh and stored access tokens, its sign-ins in progress,
 * its place in sessions), so none of it works anywhere, not even for a client registered later under
 * the same id; logout tokens not yet posted to it are dropped, and its sign-outs no longer send the
 * browser back to it. Access tokens it got as JWTs for a resource server are checked by that API
 * alone and live out their lifetime. Refused while a registered resource server names it (a client
 * registered later under its id would inherit that access: resource:update first), and for an admin
 * client unless `adminClients` (the CLI: the admin API can neither make nor remove one).
 */
export async function removeClient(
  deps: ProvisioningDeps,
  input: ClientIdInput,
  { adminClients = true }: { adminClients?: boolean } = {},
): Promise<ClientView> {
  const { id } = parseInput(clientIdInput, input);
  // Run again after a conflict with a transaction on the same rows (a sign-out ending a grant of it).
  const view = await retriedTransaction(deps.db, async (tx) => {
    const removed = await deleteClient(tx, id);
    if (!removed) throw noClient(id);
    if (!adminClients && isAdminClient(removed)) {
      throw new ConflictError('an admin client is removed with the admin CLI (client:remove) only', 'id');
    }
    // Refused here, the transaction rolls back and the client stays.
    const naming = await resourceServersNaming(tx, id);
    if (naming.length > 0) {
      const one = naming.length === 1;
      throw new ConflictError(
        `the resource server${one ? '' : 's'} ${naming.join(', ')} name${one ? 's' : ''} this client: take it out there first (resource:update)`,
        'id',
      );
    }
    const ended = await endIssuedTo(tx, id);
    // Counts only; named so the audit writer's secret filter (by key name) keeps them.
    await auditClientCommand(tx, deps, 'client:remove', id, ended);
    return viewOf(removed);
  });
  // Committed: this instance's next request finds no such client (read your own writes).
  deps.clientCache?.forget(id);
  return view;
}

/** client:list: every registered client as admins see it, by id. */
export async function listClients(deps: ProvisioningDeps, input: ListClientsInput): Promise<ClientsView> {
  parseInput(listClientsInput, input);
  const rows = await listClientRows(deps.db);
  return { clients: rows.map(viewOf) };
}

/** A registered client as admins see it. */
export async function readClient(deps: ProvisioningDeps, input: ClientIdInput): Promise<ClientView> {
  const { id } = parseInput(clientIdInput, input);
  const row = await findClient(deps.db, id);
  if (!row) throw noClient(id);
  return viewOf(row);
}
