import { adminCalls } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import {
  addClient,
  listClients,
  readClient,
  removeClient,
  updateClient,
} from '../../provisioning/client-operations.ts';
import { adminCall, type RequestDeps } from './admin-call.ts';

/**
 * The client calls: the same operations as client:add, client:list, client:show, client:update and
 * client:remove. The contract's register body has no `admin` field, so a token of the admin API
 * cannot mint further admin clients; only the CLI can.
 */
export function clientRoutes(scope: FastifyInstance, depsOf: RequestDeps): void {
  adminCall(scope, adminCalls.registerClient, depsOf, ({ body }, deps) => addClient(deps, body));
  adminCall(scope, adminCalls.listClients, depsOf, (_input, deps) => listClients(deps, {}));
  adminCall(scope, adminCalls.readClient, depsOf, ({ params }, deps) => readClient(deps, params));
  adminCall(scope, adminCalls.updateClient, depsOf, ({ params, body }, deps) =>
    updateClient(deps, { id: params.id, ...body }),
  );
  // As it cannot make an admin client, the API cannot remove one (its own, or the last one).
  adminCall(scope, adminCalls.removeClient, depsOf, ({ params }, deps) =>
    removeClient(deps, params, { adminClients: false }),
  );
}
