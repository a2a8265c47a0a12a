import { recordAudit } from '../audit/audit-log.ts';
import { InputError } from '../errors/input-error.ts';
import { parseInput } from '../errors/parse-input.ts';
import { ConflictError, NotFoundError } from '../errors/service-error.ts';
import {
  deleteResourceServer,
  findClientKeyShared,
  findResourceServer,
  insertResourceServer,
  listResourceServerRows,
  type ResourceServerRow,
  updateResourceServerRow,
} from '../oidc/oidc-repository.ts';
import { configuredEntry, type ResourceEntry, registeredEntry } from '../oidc/resource-servers.ts';
import type { Db } from '../store/database.ts';
import { isAdminClient } from './client-operations.ts';
import { signingAlgorithmsNow } from './key-operations.ts';
import { actorDetail, originColumns } from './provisioning-audit.ts';
import type { ProvisioningDeps } from './provisioning-deps.ts';
import {
  type AddResourceServerInput,
  addResourceServerInput,
  type ListResourceServersInput,
  listResourceServersInput,
  type ResourceServerInput,
  type ResourceServersView,
  type ResourceServerView,
  resourceServerInput,
  type UpdateResourceServerInput,
  updateResourceServerInput,
} from './resource-schemas.ts';

/** What a resource server's tokens live when its registration names no TTL: ten minutes. */
const DEFAULT_ACCESS_TOKEN_TTL = 600;

function viewOf(entry: ResourceEntry): ResourceServerView {
  return {
    identifier: entry.identifier,
    origin: entry.origin,
    scopes: [...entry.scopes],
    accessTokenTtl: entry.accessTokenTtl,
    signingAlg: entry.signingAlg,
    clientIds: entry.clientIds === null ? null : [...entry.clientIds],
    introspectionClientId: entry.introspectionClientId,
  };
}

const registeredView = (row: ResourceServerRow) => viewOf(registeredEntry(row));

function configuredOf(deps: ProvisioningDeps, identifier: string) {
  return deps.configuredResources?.find((server) => server.identifier === identifier);
}

/** Not registered: said so, and where to change it when RESOURCE_SERVERS names it. */
function notRegistered(deps: ProvisioningDeps, identifier: string): NotFoundError {
  if (configuredOf(deps, identifier)) {
    return new NotFoundError(
      `${identifier} is set by RESOURCE_SERVERS: change it there, or register it to take its place`,
    );
  }
  return new NotFoundError(`no resource server with the identifier ${identifier}`);
}

/** The algorithm must be one the keys signing now make, or the API could not verify its tokens. */
async function checkAlgorithm(deps: ProvisioningDeps, alg: string | null | undefined): Promise<void> {
  if (typeof alg !== 'string') return;
  const algorithms = await signingAlgorithmsNow(deps);
  if (!algorithms.includes(alg)) {
    throw new InputError(
      `must be an algorithm the provider's signing keys make: ${algorithms.join(', ')}`,
      'signingAlg',
    );
  }
}

/**
 * Each client named must be registered: a typo would lock the intended client out unnoticed. Run in
 * the transaction that names them: each row is held against its removal until it commits, so a
 * client:remove either waits and then sees the name (and refuses), or goes first and this refuses.
 */
async function checkClients(tx: Db, clientIds: readonly string[] | null | undefined): Promise<void> {
  for (const clientId of clientIds ?? []) {
    if (!(await findClientKeyShared(tx, clientId))) {
      throw new InputError(`no client with the id ${clientId}`, 'clientIds');
    }
  }
}

/**
 * The introspection client must be able to authenticate at the introspection endpoint (a confidential
 * client), and must not be an admin client, whose credentials are for the admin API only.
 */
async function checkIntrospectionClient(tx: Db, clientId: string | null | undefined): Promise<void> {
  if (typeof clientId !== 'string') return;
  // Held as checkClients holds its clients.
  const client = await findClientKeyShared(tx, clientId);
  const field = 'introspectionClientId';
  if (!client) throw new InputError(`no client with the id ${clientId}`, field);
  if (client.tokenEndpointAuthMethod === 'none') {
    throw new InputError('must be a confidential client: a public one cannot authenticate', field);
  }
  if (isAdminClient(client)) {
    throw new InputError("must not be an admin client: its credentials are the admin API's", field);
  }
}

async function audit(
  db: Db,
  deps: ProvisioningDeps,
  command: string,
  identifier: string,
  extra: Record<string, string> = {},
) {
  await recordAudit(db, {
    event: 'admin',
    outcome: 'success',
    ...originColumns(deps),
    detail: actorDetail(deps, { command, resource: identifier, ...extra }),
  });
}

/**
 * resource:add: registers an API clients may ask access tokens for (RFC 8707). It takes the place of a
 * RESOURCE_SERVERS entry of the same identifier; the provider reads it on the next token request.
 */
export async function addResourceServer(
  deps: ProvisioningDeps,
  input: AddResourceServerInput,
): Promise<ResourceServerView> {
  const parsed = parseInput(addResourceServerInput, input);
  await checkAlgorithm(deps, parsed.signingAlg);
  return deps.db.transaction(async (tx) => {
    await checkClients(tx, parsed.clientIds);
    await checkIntrospectionClient(tx, parsed.introspectionClientId);
    const row = await insertResourceServer(tx, {
      identifier: parsed.identifier,
      scopes: parsed.scopes,
      accessTokenTtl: parsed.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL,
      signingAlg: parsed.signingAlg ?? null,
      clientIds: parsed.clientIds ?? null,
      introspectionClientId: parsed.introspectionClientId ?? null,
    });
    if (!row) {
      throw new ConflictError(`a resource server ${parsed.identifier} is already registered`, 'identifier');
    }
    await audit(tx, deps, 'resource:add', parsed.identifier, { scope: parsed.scopes.join(' ') });
    return registeredView(row);
  });
}

/** resource:list: the registered resource servers, then the RESOURCE_SERVERS entries none replaces. */
export async function listResourceServers(
  deps: ProvisioningDeps,
  input: ListResourceServersInput,
): Promise<ResourceServersView> {
  parseInput(listResourceServersInput, input);
  const rows = await listResourceServerRows(deps.db);
  const registered = new Set(rows.map((row) => row.identifier));
  const configured = (deps.configuredResources ?? []).filter((server) => !registered.has(server.identifier));
  return { resourceServers: [...rows.map(registeredView), ...configured.map(configuredEntry).map(viewOf)] };
}

/** A resource server as the provider serves it: the registered one, else the configured one. */
export async function readResourceServer(
  deps: ProvisioningDeps,
  input: ResourceServerInput,
): Promise<ResourceServerView> {
  const { identifier } = parseInput(resourceServerInput, input);
  const row = await findResourceServer(deps.db, identifier);
  if (row) return registeredView(row);
  const configured = configuredOf(deps, identifier);
  if (configured) return viewOf(configuredEntry(configured));
  throw notRegistered(deps, identifier);
}

/** resource:update: only the fields given change; `null` returns a field to its default. */
export async function updateResourceServer(
  deps: ProvisioningDeps,
  input: UpdateResourceServerInput,
): Promise<ResourceServerView> {
  const { identifier, ...change } = parseInput(updateResourceServerInput, input);
  await checkAlgorithm(deps, change.signingAlg);
  return deps.db.transaction(async (tx) => {
    await checkClients(tx, change.clientIds);
    await checkIntrospectionClient(tx, change.introspectionClientId);
    const updated = await updateResourceServerRow(tx, identifier, {
      ...(change.scopes === undefined ? {} : { scopes: change.scopes }),
      ...(change.accessTokenTtl === undefined ? {} : { accessTokenTtl: change.accessTokenTtl }),
      ...(change.signingAlg === undefined ? {} : { signingAlg: change.signingAlg }),
      ...(change.clientIds === undefined ? {} : { clientIds: change.clientIds }),
      ...(change.introspectionClientId === undefined
        ? {}
        : { introspectionClientId: change.introspectionClientId }),
    });
    if (!updated) throw notRegistered(deps, identifier);
    await audit(tx, deps, 'resource:update', identifier, { changed: Object.keys(change).join(',') });
    return registeredView(updated);
  });
}

/**
 * resource:remove: clients can no longer ask for it (invalid_target), unless RESOURCE_SERVERS names
 * it. Tokens already issued for it live out their short TTL; opaque ones can no longer be introspected
 * by its introspection client.
 */
export async function removeResourceServer(
  deps: ProvisioningDeps,
  input: ResourceServerInput,
): Promise<ResourceServerView> {
  const { identifier } = parseInput(resourceServerInput, input);
  return deps.db.transaction(async (tx) => {
    const removed = await deleteResourceServer(tx, identifier);
    if (!removed) throw notRegistered(deps, identifier);
    await audit(tx, deps, 'resource:remove', identifier);
    return registeredView(removed);
  });
}
