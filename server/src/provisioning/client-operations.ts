import { recordAudit } from '../audit/audit-log.ts';
import { InputError } from '../errors/input-error.ts';
import { parseInput } from '../errors/parse-input.ts';
import { ConflictError, NotFoundError } from '../errors/service-error.ts';
import {
  type ClientRow,
  findClientForUpdate,
  insertClient,
  revokeClientCredentials,
  updateClientRow,
} from '../oidc/oidc-repository.ts';
import {
  ADMIN_CLIENT_SCOPE,
  type AddClientInput,
  addClientInput,
  type ClientView,
  type UpdateClientInput,
  updateClientInput,
} from './client-schemas.ts';
import { actorDetail } from './provisioning-audit.ts';
import type { ProvisioningDeps } from './provisioning-deps.ts';

export function isAdminClient(row: Pick<ClientRow, 'scope'>): boolean {
  return row.scope.split(' ').includes(ADMIN_CLIENT_SCOPE);
}

function viewOf(row: ClientRow): ClientView {
  return {
    clientId: row.clientId,
    productName: row.productName,
    kind: row.clientSecret === null ? 'public' : 'confidential',
    admin: isAdminClient(row),
    redirectUris: row.redirectUris,
    postLogoutRedirectUris: row.postLogoutRedirectUris,
    backchannelLogoutUri: row.backchannelLogoutUri,
    backchannelLogoutSessionRequired: row.backchannelLogoutSessionRequired,
  };
}

/** The back-channel logout fields an update gives, under their column names. */
function backchannelChanges(input: {
  backchannelLogoutUri?: string | null | undefined;
  backchannelLogoutSessionRequired?: boolean | undefined;
}) {
  const { backchannelLogoutUri, backchannelLogoutSessionRequired } = input;
  return {
    ...(backchannelLogoutUri !== undefined ? { backchannelLogoutUri } : {}),
    ...(backchannelLogoutSessionRequired !== undefined ? { backchannelLogoutSessionRequired } : {}),
  };
}

function noClient(id: string): NotFoundError {
  return new NotFoundError(`no client with the id ${id}`);
}

/**
 * Registers a relying party (DESIGN §1: every client is one of the provider's own products, so there
 * is no consent screen). Without a secret the client is public and must use PKCE. An admin client
 * may only obtain client-credentials tokens, and only it may ask for the admin scope.
 */
export async function addClient(deps: ProvisioningDeps, input: AddClientInput): Promise<ClientView> {
  const parsed = parseInput(addClientInput, input);
  const { id, name, secret, admin } = parsed;
  if (admin === true && secret === undefined) {
    throw new InputError('an admin client must be confidential: give a secret', 'secret');
  }
  return deps.db.transaction(async (tx) => {
    const row = await insertClient(tx, {
      clientId: id,
      productName: name,
      // oidc-provider compares client_secret_basic credentials with the stored value itself.
      clientSecret: secret ?? null,
      redirectUris: [...new Set(parsed.redirectUris)],
      postLogoutRedirectUris: [...new Set(parsed.postLogoutUris ?? [])],
      grantTypes: admin === true ? ['client_credentials'] : [],
      ...(admin === true ? { scope: ADMIN_CLIENT_SCOPE } : {}),
      backchannelLogoutUri: parsed.backchannelLogoutUri ?? null,
      backchannelLogoutSessionRequired: parsed.backchannelLogoutSessionRequired ?? false,
    });
    if (!row) throw new ConflictError(`a client with the id ${id} already exists`, 'id');
    const view = viewOf(row);
    await recordAudit(tx, {
      event: 'admin',
      outcome: 'success',
      detail: actorDetail(deps, { command: 'client:add', clientId: id, kind: view.kind, admin: view.admin }),
    });
    return view;
  });
}

/**
 * Changes a registered client: product name, redirect and post-logout URIs (lists replace), secret
 * (null: public, PKCE). An admin client keeps its shape: confidential and without redirect URIs.
 */
export async function updateClient(deps: ProvisioningDeps, input: UpdateClientInput): Promise<ClientView> {
  const parsed = parseInput(updateClientInput, input);
  const { id, name, redirectUris, postLogoutUris, secret } = parsed;
  return deps.db.transaction(async (tx) => {
    const row = await findClientForUpdate(tx, id);
    if (!row) throw noClient(id);
    if (isAdminClient(row)) {
      if (secret === null) throw new InputError('an admin client must keep a secret', 'secret');
      if (redirectUris !== undefined) {
        throw new InputError('an admin client signs nobody in: give no redirect URI', 'redirectUris');
      }
      if (postLogoutUris !== undefined && postLogoutUris.length > 0) {
        throw new InputError('an admin client signs nobody in: give no post-logout URI', 'postLogoutUris');
      }
      if (typeof parsed.backchannelLogoutUri === 'string') {
        throw new InputError(
          'an admin client signs nobody in: give no back-channel logout URI',
          'backchannelLogoutUri',
        );
      }
    }
    const changes = {
      ...(name !== undefined ? { productName: name } : {}),
      ...(redirectUris !== undefined ? { redirectUris: [...new Set(redirectUris)] } : {}),
      ...(postLogoutUris !== undefined ? { postLogoutRedirectUris: [...new Set(postLogoutUris)] } : {}),
      ...(secret !== undefined ? { clientSecret: secret } : {}),
      ...backchannelChanges(parsed),
    };
    const updated = await updateClientRow(tx, id, changes);
    if (!updated) throw noClient(id);
    // Whoever held the old secret is out: the client-credentials tokens it obtained end too.
    if (secret !== undefined) await revokeClientCredentials(tx, id);
    await recordAudit(tx, {
      event: 'admin',
      outcome: 'success',
      // Which fields changed, never their values: the secret must not reach the log.
      detail: actorDetail(deps, {
        command: 'client:update',
        clientId: id,
        changed: Object.keys(changes).join(','),
      }),
    });
    return viewOf(updated);
  });
}
