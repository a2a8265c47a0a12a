import { recordAudit } from '../audit/audit-log.ts';
import {
  deleteDomainBinding,
  domainsOf,
  findDomainBindings,
  findProviderView,
  insertDomainBindings,
  insertProvider,
  listDomainBindings,
  listProviders,
} from '../federation/federation-repository.ts';
import type { Db } from '../store/database.ts';
import { actorDetail } from './admin-account.ts';
import type { AdminDeps } from './admin-deps.ts';
import { type AdminResult, ok, parseInput, refuse } from './admin-result.ts';
import {
  type AddUpstreamProviderInput,
  addUpstreamProviderInput,
  DEFAULT_UPSTREAM_SCOPES,
  type DomainBindingInput,
  domainBindingInput,
  type FindUpstreamProviderInput,
  findUpstreamProviderInput,
  type UpstreamProviderList,
  type UpstreamProviderView,
} from './provider-schemas.ts';

/**
 * Upstream OpenID Connect providers and the e-mail domains bound to them (DESIGN §1 Federation), for
 * the admin CLI (idp:add) and the admin HTTP API. Each operation validates its input, answers an
 * AdminResult (invalid_input / not_found / conflict) and records an audit event without the secret.
 */

export * from './provider-schemas.ts';

/** Registers a provider and binds its domains in one transaction; answers it with its GUID. */
export async function addUpstreamProvider(
  deps: AdminDeps,
  input: AddUpstreamProviderInput,
): Promise<AdminResult<UpstreamProviderView>> {
  const parsed = parseInput(addUpstreamProviderInput, input);
  if (!parsed.ok) return parsed;
  const { name, issuer, clientId, clientSecret } = parsed.value;
  const scopes = [...new Set(parsed.value.scopes ?? DEFAULT_UPSTREAM_SCOPES)];
  const domains = [...new Set(parsed.value.domains)];
  return deps.db.transaction(async (tx) => {
    const taken = await findDomainBindings(tx, domains);
    if (taken.length > 0) return domainTaken(taken[0]?.domain ?? '', 'domains');
    const id = await insertProvider(tx, { name, issuer, clientId, clientSecret, scopes });
    // A concurrent binding of the same domain fails here on the primary key and rolls everything back.
    await insertDomainBindings(
      tx,
      domains.map((domain) => ({ domain, providerId: id })),
    );
    await auditProvider(tx, deps, 'idp:add', id, { domains: domains.length });
    return ok({ id, name, issuer, clientId, scopes, domains: domains.toSorted() });
  });
}

/** Binds one more domain; binding a domain the provider already has is a no-op, another's is a conflict. */
export async function bindUpstreamDomain(
  deps: AdminDeps,
  input: DomainBindingInput,
): Promise<AdminResult<UpstreamProviderView>> {
  const parsed = parseInput(domainBindingInput, input);
  if (!parsed.ok) return parsed;
  const { providerId, domain } = parsed.value;
  return deps.db.transaction(async (tx) => {
    if (!(await findProviderView(tx, providerId))) return noProvider(providerId);
    const [bound] = await findDomainBindings(tx, [domain]);
    if (bound && bound.providerId !== providerId) return domainTaken(domain, 'domain');
    if (!bound) {
      await insertDomainBindings(tx, [{ domain, providerId }]);
      await auditProvider(tx, deps, 'idp:bind-domain', providerId, { domain });
    }
    return viewOf(tx, providerId);
  });
}

/** Removes a binding of this provider; e-mails of that domain sign in with a password again. */
export async function unbindUpstreamDomain(
  deps: AdminDeps,
  input: DomainBindingInput,
): Promise<AdminResult<UpstreamProviderView>> {
  const parsed = parseInput(domainBindingInput, input);
  if (!parsed.ok) return parsed;
  const { providerId, domain } = parsed.value;
  return deps.db.transaction(async (tx) => {
    if (!(await findProviderView(tx, providerId))) return noProvider(providerId);
    if (!(await deleteDomainBinding(tx, { domain, providerId })))
      return refuse('not_found', `${domain} is not bound to this provider`, 'domain');
    await auditProvider(tx, deps, 'idp:unbind-domain', providerId, { domain });
    return viewOf(tx, providerId);
  });
}

export async function findUpstreamProvider(
  deps: AdminDeps,
  input: FindUpstreamProviderInput,
): Promise<AdminResult<UpstreamProviderView>> {
  const parsed = parseInput(findUpstreamProviderInput, input);
  if (!parsed.ok) return parsed;
  return viewOf(deps.db, parsed.value.providerId);
}

export async function listUpstreamProviders(deps: AdminDeps): Promise<AdminResult<UpstreamProviderList>> {
  const rows = await listProviders(deps.db);
  const bindings = await listDomainBindings(deps.db);
  return ok({
    providers: rows.map((row) => ({
      ...row,
      domains: bindings.filter((binding) => binding.providerId === row.id).map((binding) => binding.domain),
    })),
  });
}

async function viewOf(db: Db, providerId: string): Promise<AdminResult<UpstreamProviderView>> {
  const row = await findProviderView(db, providerId);
  if (!row) return noProvider(providerId);
  return ok({ ...row, domains: await domainsOf(db, providerId) });
}

function noProvider(providerId: string) {
  return refuse('not_found', `no upstream provider with the id ${providerId}`, 'providerId');
}

function domainTaken(domain: string, field: string) {
  return refuse('conflict', `the domain ${domain} is already bound to an upstream provider`, field);
}

/** Names the admin API client that asked (deps.actor), as the account and client operations do. */
function auditProvider(
  db: Db,
  deps: AdminDeps,
  command: string,
  providerId: string,
  detail: Record<string, string | number>,
) {
  return recordAudit(db, {
    event: 'admin',
    outcome: 'success',
    detail: actorDetail(deps, { command, providerId, ...detail }),
  });
}
