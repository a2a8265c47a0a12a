import { type AdminCall, providerCallErrors } from '@keycard/contract';
import { z } from 'zod';
import {
  addUpstreamProviderInput,
  domainField,
  providerIdField,
  upstreamProviderList,
  upstreamProviderView,
} from '../../provisioning/provider-schemas.ts';

/**
 * The upstream-provider calls (DESIGN §1 Federation). Their schemas are the federation module's own
 * inputs and answers: issuer and domain rules need node:url (IDNA), which the contract, bundled into
 * the SPA, must not import. Path parameters carry the operations' field names, so a refusal names
 * the same field whichever way it came in. Their error codes are the contract's (providerCallErrors).
 */
const providerParams = z.strictObject({ providerId: providerIdField });
const bindingParams = z.strictObject({ providerId: providerIdField, domain: domainField });

export const providerCalls = {
  addProvider: {
    method: 'POST',
    path: '/upstream-providers',
    summary: 'Register an upstream OpenID Connect provider and bind e-mail domains to it',
    body: addUpstreamProviderInput,
    response: upstreamProviderView,
    status: 201,
    errors: providerCallErrors.addProvider,
  },
  listProviders: {
    method: 'GET',
    path: '/upstream-providers',
    summary: 'List the upstream providers and their domains',
    response: upstreamProviderList,
    status: 200,
    errors: providerCallErrors.listProviders,
  },
  readProvider: {
    method: 'GET',
    path: '/upstream-providers/{providerId}',
    summary: 'Read an upstream provider and its domains',
    params: providerParams,
    response: upstreamProviderView,
    status: 200,
    errors: providerCallErrors.readProvider,
  },
  bindDomain: {
    method: 'PUT',
    path: '/upstream-providers/{providerId}/domains/{domain}',
    summary: 'Bind an e-mail domain to the provider (home realm discovery)',
    params: bindingParams,
    response: upstreamProviderView,
    status: 200,
    errors: providerCallErrors.bindDomain,
  },
  unbindDomain: {
    method: 'DELETE',
    path: '/upstream-providers/{providerId}/domains/{domain}',
    summary: 'Unbind an e-mail domain: its addresses sign in with a password again',
    params: bindingParams,
    response: upstreamProviderView,
    status: 200,
    errors: providerCallErrors.unbindDomain,
  },
} as const satisfies Record<string, AdminCall>;
