import { adminCalls } from '@keycard/contract';
import type { FastifyInstance } from 'fastify';
import { deleteUser, readUser } from '../../provisioning/user-lookup-operations.ts';
import { changeEmail, inviteAccount } from '../../provisioning/user-mail-operations.ts';
import {
  addUser,
  disableUser,
  enableUser,
  expirePassword,
  setLanguage,
  unlockUser,
} from '../../provisioning/user-operations.ts';
import { adminCall, type RequestDeps } from './admin-call.ts';

/** The account calls: the same operations as the user:* commands of the CLI. */
export function userRoutes(scope: FastifyInstance, depsOf: RequestDeps): void {
  adminCall(scope, adminCalls.createUser, depsOf, ({ body }, deps) => addUser(deps, body));
  adminCall(scope, adminCalls.findUser, depsOf, ({ query }, deps) => readUser(deps, { email: query.email }));
  adminCall(scope, adminCalls.readUser, depsOf, ({ params }, deps) => readUser(deps, params));
  adminCall(scope, adminCalls.deleteUser, depsOf, ({ params }, deps) => deleteUser(deps, params));
  adminCall(scope, adminCalls.inviteUser, depsOf, ({ params }, deps) => inviteAccount(deps, params));
  adminCall(scope, adminCalls.changeEmail, depsOf, ({ params, body }, deps) =>
    changeEmail(deps, { id: params.id, newEmail: body.newEmail }),
  );
  adminCall(scope, adminCalls.setLanguage, depsOf, ({ params, body }, deps) =>
    setLanguage(deps, { id: params.id, language: body.language }),
  );
  adminCall(scope, adminCalls.expirePassword, depsOf, ({ params }, deps) => expirePassword(deps, params));
  adminCall(scope, adminCalls.unlockUser, depsOf, ({ params }, deps) => unlockUser(deps, params));
  adminCall(scope, adminCalls.disableUser, depsOf, ({ params }, deps) => disableUser(deps, params));
  adminCall(scope, adminCalls.enableUser, depsOf, ({ params }, deps) => enableUser(deps, params));
}
