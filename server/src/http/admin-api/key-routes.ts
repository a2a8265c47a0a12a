import { adminCalls } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { listKeys, rotateKeys } from '../../provisioning/key-operations.ts';
import { adminCall, type RequestDeps } from './admin-call.ts';

/** The signing key calls: the same operations as keys:list and keys:rotate. */
export function keyRoutes(scope: FastifyInstance, depsOf: RequestDeps): void {
  adminCall(scope, adminCalls.listSigningKeys, depsOf, (_input, deps) => listKeys(deps, {}));
  adminCall(scope, adminCalls.rotateSigningKeys, depsOf, (_input, deps) => rotateKeys(deps, {}));
}
