import { recordAudit } from '../audit/audit-log.ts';
import { parseInput } from '../errors/parse-input.ts';
import { ConflictError, NotFoundError } from '../errors/service-error.ts';
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
import { unlinkAccountsOfDomain } from '../federation/unlink-domain.ts';
import { endAccountSessionsWithLogout } from '../oidc/logout.ts';
import { fixedClock } from '../recovery/fixed-clock.ts';
import type { Db } from '../store/database.ts';
import { isUniqueViolation } from '../store/sql-state.ts';
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
import { actorDetail, originColumns } from './provisioning-audit.ts';
import { clockOf, type ProvisioningDeps } from './provisioning-deps.ts';

/**
 * Upstream OpenID Connect providers and the e-mail domains bound to them (DESIGN §1 Federation), for
 * the admin CLI (idp:add) and the admin HTTP API. Each operation validates its input, throws
 * its refusals (InputError, NotFoundError, ConflictError) and records an audit event without the secret.
 */

/** Registers a provider and binds its domains in one transaction; answers it with its GUID. */
export async function addUpstreamProvider(
  deps: ProvisioningDeps,
  input: AddUpstreamProviderInput,
): Promise<UpstreamProviderView> {
  const parsed = parseInput(addUpstreamProviderInput, input);
  const { name, issuer, clientId, clientSecret } = parsed;
  const scopes = [...new Set(parsed.scopes ?? DEFAULT_UPSTREAM_SCOPES)];
  const domains = [...new Set(parsed.domains)];
  try {
    return await deps.db.transaction(async (tx) => {
      const taken = await findDomainBindings(tx, domains);
      if (taken.length > 0) throw domainTaken(taken[0]?.domain ?? '', 'domains');
      const id = await insertProvider(tx, { name, issuer, clientId, clientSecret, scopes });
      // A concurrent binding of the same domain fails here on the primary key and rolls everything back.
      await insertDomainBindings(
        tx,
        domains.map((domain) => ({ domain, providerId: id })),
      );
      await auditProvider(tx, deps, 'idp:add', id, { domains: domains.length });
      return { id, name, issuer, clientId, scopes, domains: domains.toSorted() };
    });
  } catch (error) {
    // The other registration or binding committed first: the same answer as had it been seen above.
    if (!isUniqueViolation(error)) throw error;
    const [taken] = await findDomainBindings(deps.db, domains);
    throw domainTaken(taken?.domain ?? domains.join(', '), 'domains');
  }
}

/** Binds one more domain; binding a domain the provider already has is a no-op, another's is a conflict. */
export async function bindUpstreamDomain(
  deps: ProvisioningDeps,
  input: DomainBindingInput,
): Promise<UpstreamProviderView> {
  const { providerId, domain } = parseInput(domainBindingInput, input);
  try {
    return await deps.db.transaction(async (tx) => {
      if (!(await findProviderView(tx, providerId))) throw noProvider(providerId);
      const [bound] = await findDomainBindings(tx, [domain]);
      if (bound && bound.providerId !== providerId) throw domainTaken(domain, 'domain');
      if (!bound) {
        await insertDomainBindings(tx, [{ domain, providerId }]);
        await auditProvider(tx, deps, 'idp:bind-domain', providerId, { domain });
      }
      return viewOf(tx, providerId);
    });
  } catch (error) {
    // A binding of the same domain committed meanwhile: to this provider it is the no-op a repeat is,
    // to another the conflict it would have been had it been seen above.
    if (!isUniqueViolation(error)) throw error;
    const [bound] = await findDomainBindings(deps.db, [domain]);
    if (bound?.providerId !== providerId) throw domainTaken(domain, 'domain');
    return viewOf(deps.db, providerId);
  }
}

/**
 * Removes a binding of this provider; e-mails of that domain sign in with a password again. Its
 * accounts linked to the provider are unlinked with it, in the same transaction (unlink-domain.ts),
 * their sessions and grants end, and each has an audit event of its own, so the account's trail says
 * why its link went.
 */
export async function unbindUpstreamDomain(
  deps: ProvisioningDeps,
  input: DomainBindingInput,
): Promise<UpstreamProviderView> {
  const { providerId, domain } = parseInput(domainBindingInput, input);
  const now = await clockOf(deps).now();
  return deps.db.transaction(async (tx) => {
    if (!(await findProviderView(tx, providerId))) throw noProvider(providerId);
    if (!(await deleteDomainBinding(tx, { domain, providerId })))
      throw new NotFoundError(`${domain} is not bound to this provider`, 'domain');
    const unlinked = await unlinkAccountsOfDomain(tx, { domain, providerId });
    for (const accountId of unlinked) {
      // Their sign-ins were the organisation's to vouch for, and it no longer does: they end, as a
      // disable ends them, and each relying party hears of it by back-channel logout.
      await endAccountSessionsWithLogout(tx, fixedClock(now), accountId);
      await auditProvider(
        tx,
        deps,
        'idp:unbind-domain',
        providerId,
        { domain, account: 'unlinked' },
        accountId,
      );
    }
    await auditProvider(tx, deps, 'idp:unbind-domain', providerId, {
      domain,
      unlinkedAccounts: unlinked.length,
    });
    return viewOf(tx, providerId);
  });
}

export async function findUpstreamProvider(
  deps: ProvisioningDeps,
  input: FindUpstreamProviderInput,
): Promise<UpstreamProviderView> {
  return viewOf(deps.db, parseInput(findUpstreamProviderInput, input).providerId);
}

export async function listUpstreamProviders(deps: ProvisioningDeps): Promise<UpstreamProviderList> {
  const rows = await listProviders(deps.db);
  const bindings = await listDomainBindings(deps.db);
  return {
    providers: rows.map((row) => ({
      ...row,
      domains: bindings.filter((binding) => binding.providerId === row.id).map((binding) => binding.domain),
    })),
  };
}

async function viewOf(db: Db, providerId: string): Promise<UpstreamProviderView> {
  const row = await findProviderView(db, providerId);
  if (!row) throw noProvider(providerId);
  return { ...row, domains: await domainsOf(db, providerId) };
}

function noProvider(providerId: string): NotFoundError {
  return new NotFoundError(`no upstream provider with the id ${providerId}`, 'providerId');
}

function domainTaken(domain: string, field: string): ConflictError {
  return new ConflictError(`the domain ${domain} is already bound to an upstream provider`, field);
}

/**
 * Names the admin API client that asked (deps.actor), as the account and client operations do, and
 * the account the command changed, if any.
 */
function auditProvider(
  db: Db,
  deps: ProvisioningDeps,
  command: string,
  providerId: string,
  detail: Record<string, string | number>,
  accountId: string | null = null,
) {
  return recordAudit(db, {
    event: 'admin',
    outcome: 'success',
    accountId,
    ...originColumns(deps),
    detail: actorDetail(deps, { command, providerId, ...detail }),
  });
}
