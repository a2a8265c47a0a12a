import type { FastifyInstance } from 'fastify';
import {
  addUpstreamProvider,
  bindUpstreamDomain,
  findUpstreamProvider,
  listUpstreamProviders,
  unbindUpstreamDomain,
} from '../../provisioning/provider-operations.ts';
import { adminCall, type RequestDeps } from './admin-call.ts';
import { providerCalls } from './provider-calls.ts';

/** The upstream-provider calls: the federation module's operations, as idp:add uses them. */
export function providerRoutes(scope: FastifyInstance, depsOf: RequestDeps): void {
  adminCall(scope, providerCalls.addProvider, depsOf, ({ body }, deps) => addUpstreamProvider(deps, body));
  adminCall(scope, providerCalls.listProviders, depsOf, (_input, deps) => listUpstreamProviders(deps));
  adminCall(scope, providerCalls.readProvider, depsOf, ({ params }, deps) =>
    findUpstreamProvider(deps, params),
  );
  adminCall(scope, providerCalls.bindDomain, depsOf, ({ params }, deps) => bindUpstreamDomain(deps, params));
  adminCall(scope, providerCalls.unbindDomain, depsOf, ({ params }, deps) =>
    unbindUpstreamDomain(deps, params),
  );
}
