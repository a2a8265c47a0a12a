import { adminCalls } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { listKeys, revokeKeys, rotateKeys } from '../../provisioning/key-operations.ts';
import { adminCall, type RequestDeps } from './admin-call.ts';

/**
 * The signing key calls: the same operations as keys:list, keys:rotate and keys:revoke. A rotation or
 * revocation made here tells this instance's key schedule once it commits (app.ts decorates it), so
 * the next protocol request here already signs and publishes without the revoked keys; the other
 * instances hear of it from the database (oidc/key-changes.ts).
 */
export function keyRoutes(scope: FastifyInstance, depsOf: RequestDeps): void {
  const withSchedule = (deps: ReturnType<RequestDeps>) => ({ ...deps, keySchedule: scope.keySchedule });
  adminCall(scope, adminCalls.listSigningKeys, depsOf, (_input, deps) => listKeys(deps, {}));
  adminCall(scope, adminCalls.rotateSigningKeys, depsOf, ({ body }, deps) =>
    rotateKeys(withSchedule(deps), body),
  );
  adminCall(scope, adminCalls.revokeSigningKeys, depsOf, ({ body }, deps) =>
    revokeKeys(withSchedule(deps), body),
  );
}
