import { ADMIN_SCOPE, registerClientBody, updateClientBody } from '@keycard/contract';
import { z } from 'zod';
import { clientIdField } from './input-fields.ts';

/** Inputs of the OIDC client operations (client-operations.ts); their answer is the contract's clientView. */
export { type ClientsView, type ClientView, clientsView, clientView } from '@keycard/contract';

/** The stored scope of an admin client: client-credentials tokens with the admin scope, nothing else. */
export const ADMIN_CLIENT_SCOPE = ADMIN_SCOPE;

/**
 * client:add. `admin` (the CLI's --admin only; the admin API cannot mint clients that call it) makes
 * a machine client that signs nobody in: it takes no redirect URIs, and needs a secret, which
 * addClient checks with the rest of the registration (client-rules.ts; the CLI validates its flags
 * before it reads the secret from standard input, the shapes here, the combinations there).
 */
export const addClientInput = z
  .strictObject({ ...registerClientBody.shape, admin: z.boolean().optional() })
  .check((ctx) => {
    const { admin, redirectUris, postLogoutUris } = ctx.value;
    const issue = (field: string, message: string) =>
      ctx.issues.push({ code: 'custom', path: [field], message, input: undefined });
    if (admin !== true) return;
    if ((redirectUris ?? []).length > 0)
      issue('redirectUris', 'an admin client signs nobody in: give no redirect URI');
    if ((postLogoutUris ?? []).length > 0) {
      issue('postLogoutUris', 'an admin client signs nobody in: give no post-logout URI');
    }
    if (ctx.value.scopes !== undefined) issue('scopes', `an admin client's scope is ${ADMIN_SCOPE}`);
    if (ctx.value.backchannelLogoutUri !== undefined) {
      issue('backchannelLogoutUri', 'an admin client signs nobody in: give no back-channel logout URI');
    }
  });
export type AddClientInput = z.input<typeof addClientInput>;

/** Changing a registered relying party: its id, and the fields of the contract's update body. */
export const updateClientInput = z.strictObject({ id: clientIdField, ...updateClientBody.shape });
export type UpdateClientInput = z.input<typeof updateClientInput>;

/** Reading a registered relying party. */
export const clientIdInput = z.strictObject({ id: clientIdField });
export type ClientIdInput = z.input<typeof clientIdInput>;

/** client:list: no input. */
export const listClientsInput = z.strictObject({});
export type ListClientsInput = z.input<typeof listClientsInput>;
