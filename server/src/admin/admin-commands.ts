import { z } from 'zod';
import { failedLogouts } from '../provisioning/backchannel-operations.ts';
import { failedLogoutsInput } from '../provisioning/backchannel-schemas.ts';
import {
  addClient,
  listClients,
  readClient,
  removeClient,
  updateClient,
} from '../provisioning/client-operations.ts';
import {
  addClientInput,
  clientIdInput,
  listClientsInput,
  updateClientInput,
} from '../provisioning/client-schemas.ts';
import { listKeys, revokeKeys, rotateKeys } from '../provisioning/key-operations.ts';
import {
  listSigningKeysInput,
  revokeSigningKeysInput,
  rotateSigningKeysInput,
} from '../provisioning/key-schemas.ts';
import { failedMail } from '../provisioning/mail-operations.ts';
import { failedMailInput } from '../provisioning/mail-schemas.ts';
import { addUpstreamProvider } from '../provisioning/provider-operations.ts';
import { addUpstreamProviderInput } from '../provisioning/provider-schemas.ts';
import type { ProvisioningDeps } from '../provisioning/provisioning-deps.ts';
import {
  addResourceServer,
  listResourceServers,
  removeResourceServer,
  updateResourceServer,
} from '../provisioning/resource-operations.ts';
import {
  addResourceServerInput,
  listResourceServersInput,
  resourceServerInput,
  updateResourceServerInput,
} from '../provisioning/resource-schemas.ts';
import { changeEmail, inviteAccount } from '../provisioning/user-mail-operations.ts';
import {
  addUser,
  disableUser,
  enableUser,
  expirePassword,
  setLanguage,
  unlockUser,
} from '../provisioning/user-operations.ts';
import {
  accountInput,
  addUserInput,
  changeEmailInput,
  setLanguageInput,
} from '../provisioning/user-schemas.ts';
import { type AdminResponse, refusalOf } from './socket-protocol.ts';

/**
 * One admin command as data: its name and validated input. The CLI builds these, the admin socket
 * receives them from the CLI, and runAdminRequest runs them in whichever process holds the database.
 */
export const adminRequestSchema = z.discriminatedUnion('command', [
  z.strictObject({ command: z.literal('user:add'), input: addUserInput }),
  z.strictObject({ command: z.literal('user:expire-password'), input: accountInput }),
  z.strictObject({ command: z.literal('user:unlock'), input: accountInput }),
  z.strictObject({ command: z.literal('user:disable'), input: accountInput }),
  z.strictObject({ command: z.literal('user:enable'), input: accountInput }),
  z.strictObject({ command: z.literal('user:invite'), input: accountInput }),
  z.strictObject({ command: z.literal('user:change-email'), input: changeEmailInput }),
  z.strictObject({ command: z.literal('user:set-language'), input: setLanguageInput }),
  z.strictObject({ command: z.literal('client:add'), input: addClientInput }),
  z.strictObject({ command: z.literal('client:list'), input: listClientsInput }),
  z.strictObject({ command: z.literal('client:show'), input: clientIdInput }),
  z.strictObject({ command: z.literal('client:update'), input: updateClientInput }),
  z.strictObject({ command: z.literal('client:remove'), input: clientIdInput }),
  z.strictObject({ command: z.literal('mail:failed'), input: failedMailInput }),
  z.strictObject({ command: z.literal('backchannel:failed'), input: failedLogoutsInput }),
  z.strictObject({ command: z.literal('idp:add'), input: addUpstreamProviderInput }),
  z.strictObject({ command: z.literal('keys:list'), input: listSigningKeysInput }),
  z.strictObject({ command: z.literal('keys:rotate'), input: rotateSigningKeysInput }),
  z.strictObject({ command: z.literal('keys:revoke'), input: revokeSigningKeysInput }),
  z.strictObject({ command: z.literal('resource:add'), input: addResourceServerInput }),
  z.strictObject({ command: z.literal('resource:list'), input: listResourceServersInput }),
  z.strictObject({ command: z.literal('resource:update'), input: updateResourceServerInput }),
  z.strictObject({ command: z.literal('resource:remove'), input: resourceServerInput }),
]);
export type AdminRequest = z.input<typeof adminRequestSchema>;

/**
 * Runs one command against `deps.db` and answers the admin socket's AdminResponse, for the socket and
 * the CLI alike: the operation's value, or its refusal (invalid_input, not_found, conflict). Anything
 * else it throws is a failure, left to the caller. The operation validates the input again, so any
 * caller may use it.
 */
export async function runAdminRequest(deps: ProvisioningDeps, request: AdminRequest): Promise<AdminResponse> {
  try {
    return { ok: true, value: await runOperation(deps, request) };
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === undefined) throw error;
    return { ok: false, error: refusal };
  }
}

function runOperation(deps: ProvisioningDeps, request: AdminRequest): Promise<unknown> {
  switch (request.command) {
    case 'user:add':
      return addUser(deps, request.input);
    case 'user:expire-password':
      return expirePassword(deps, request.input);
    case 'user:unlock':
      return unlockUser(deps, request.input);
    case 'user:disable':
      return disableUser(deps, request.input);
    case 'user:enable':
      return enableUser(deps, request.input);
    case 'user:invite':
      return inviteAccount(deps, request.input);
    case 'user:change-email':
      return changeEmail(deps, request.input);
    case 'user:set-language':
      return setLanguage(deps, request.input);
    case 'client:add':
      return addClient(deps, request.input);
    case 'client:list':
      return listClients(deps, request.input);
    case 'client:show':
      return readClient(deps, request.input);
    case 'client:update':
      return updateClient(deps, request.input);
    case 'client:remove':
      return removeClient(deps, request.input);
    case 'mail:failed':
      return failedMail(deps, request.input);
    case 'backchannel:failed':
      return failedLogouts(deps, request.input);
    case 'idp:add':
      return addUpstreamProvider(deps, request.input);
    case 'keys:list':
      return listKeys(deps, request.input);
    case 'keys:rotate':
      return rotateKeys(deps, request.input);
    case 'keys:revoke':
      return revokeKeys(deps, request.input);
    case 'resource:add':
      return addResourceServer(deps, request.input);
    case 'resource:list':
      return listResourceServers(deps, request.input);
    case 'resource:update':
      return updateResourceServer(deps, request.input);
    case 'resource:remove':
      return removeResourceServer(deps, request.input);
  }
}
