import { adminCalls } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import {
  addResourceServer,
  listResourceServers,
  readResourceServer,
  removeResourceServer,
  updateResourceServer,
} from '../../provisioning/resource-operations.ts';
import { adminCall, type RequestDeps } from './admin-call.ts';

/** The resource server calls: the same operations as resource:add, :list, :update and :remove. */
export function resourceRoutes(scope: FastifyInstance, depsOf: RequestDeps): void {
  adminCall(scope, adminCalls.registerResourceServer, depsOf, ({ body }, deps) =>
    addResourceServer(deps, body),
  );
  adminCall(scope, adminCalls.listResourceServers, depsOf, (_input, deps) => listResourceServers(deps, {}));
  adminCall(scope, adminCalls.readResourceServer, depsOf, ({ params }, deps) =>
    readResourceServer(deps, params),
  );
  adminCall(scope, adminCalls.updateResourceServer, depsOf, ({ params, body }, deps) =>
    updateResourceServer(deps, { ...params, ...body }),
  );
  adminCall(scope, adminCalls.removeResourceServer, depsOf, ({ params }, deps) =>
    removeResourceServer(deps, params),
  );
}
