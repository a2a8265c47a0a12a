import { recordAudit } from '../audit/audit-log.ts';
import { oidcClients } from '../store/tables/index.ts';
import { type AdminDeps, type AdminResult, ok, parseInput, refuse } from './admin-result.ts';
import { type AddClientInput, type AddClientResult, addClientInput } from './client-schemas.ts';

/**
 * Registers a relying party (DESIGN §1: every client is one of the provider's own products, so there
 * is no consent screen). Without a secret the client is public and must use PKCE.
 */
export async function addClient(
  deps: AdminDeps,
  input: AddClientInput,
): Promise<AdminResult<AddClientResult>> {
  const parsed = parseInput(addClientInput, input);
  if (!parsed.ok) return parsed;
  const { id, name, secret } = parsed.value;
  const redirectUris = [...new Set(parsed.value.redirectUris)];
  const postLogoutRedirectUris = [...new Set(parsed.value.postLogoutUris ?? [])];
  return deps.db.transaction(async (tx) => {
    const inserted = await tx
      .insert(oidcClients)
      .values({
        clientId: id,
        productName: name,
        // oidc-provider compares client_secret_basic credentials with the stored value itself.
        clientSecret: secret ?? null,
        redirectUris,
        postLogoutRedirectUris,
        grantTypes: [],
      })
      .onConflictDoNothing({ target: oidcClients.clientId })
      .returning({ clientId: oidcClients.clientId });
    if (inserted.length === 0) return refuse('conflict', `a client with the id ${id} already exists`, 'id');
    const kind = secret === undefined ? 'public' : 'confidential';
    await recordAudit(tx, {
      event: 'admin',
      outcome: 'success',
      detail: { command: 'client:add', clientId: id, kind },
    });
    return ok({ clientId: id, productName: name, kind, redirectUris, postLogoutRedirectUris });
  });
}
