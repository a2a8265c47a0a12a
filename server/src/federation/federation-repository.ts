import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../store/database.ts';
import { preparedPerDb } from '../store/prepared.ts';
import { accounts, upstreamDomains, upstreamProviders } from '../store/tables/index.ts';

/** SQL of upstream providers, the e-mail domains bound to them and the accounts linked to them (STYLE §6). */

/** An upstream provider as the sign-in flow needs it, secret included (never shown to admins). */
export type UpstreamProviderRecord = typeof upstreamProviders.$inferSelect;

/** A domain bound to a provider. */
export type DomainBinding = typeof upstreamDomains.$inferSelect;

export async function findProviderRecord(db: Db, providerId: string): Promise<UpstreamProviderRecord | null> {
  const [row] = await db
    .select()
    .from(upstreamProviders)
    .where(eq(upstreamProviders.id, providerId))
    .limit(1);
  return row ?? null;
}

/** The provider's display name; '' when there is no such provider. */
export async function findProviderName(db: Db, providerId: string): Promise<string> {
  const [row] = await db
    .select({ name: upstreamProviders.name })
    .from(upstreamProviders)
    .where(eq(upstreamProviders.id, providerId));
  return row?.name ?? '';
}

// Every CheckUsername asks: prepared (store/prepared.ts).
const providerIdByDomain = preparedPerDb('upstream_provider_of_domain', (db) =>
  db
    .select({ providerId: upstreamDomains.providerId })
    .from(upstreamDomains)
    .where(eq(upstreamDomains.domain, sql.placeholder('domain')))
    .limit(1),
);

/** The provider bound to a domain (its binding key), if any. */
export async function providerIdBoundTo(db: Db, domain: string): Promise<string | null> {
  const [row] = await providerIdByDomain(db).execute({ domain });
  return row?.providerId ?? null;
}

/**
 * As providerIdBoundTo, in a transaction that holds the binding (FOR SHARE) until it ends: an unbind
 * of the domain waits for that transaction, and one that committed first has left no row to find.
 */
export async function providerIdBoundToHeld(tx: Db, domain: string): Promise<string | null> {
  const [row] = await tx
    .select({ providerId: upstreamDomains.providerId })
    .from(upstreamDomains)
    .where(eq(upstreamDomains.domain, domain))
    .for('share');
  return row?.providerId ?? null;
}

/** What admins see of a provider: never its secret. */
const viewColumns = {
  id: upstreamProviders.id,
  name: upstreamProviders.name,
  issuer: upstreamProviders.issuer,
  clientId: upstreamProviders.clientId,
  scopes: upstreamProviders.scopes,
};

/** Every provider as admins see it, by name. */
export function listProviders(db: Db) {
  return db
    .select(viewColumns)
    .from(upstreamProviders)
    .orderBy(asc(upstreamProviders.name), asc(upstreamProviders.id));
}

/** One provider as admins see it, if it exists. */
export async function findProviderView(db: Db, providerId: string) {
  const [row] = await db
    .select(viewColumns)
    .from(upstreamProviders)
    .where(eq(upstreamProviders.id, providerId));
  return row;
}

/** Registers a provider; answers its id. */
export async function insertProvider(
  db: Db,
  row: Pick<UpstreamProviderRecord, 'name' | 'issuer' | 'clientId' | 'clientSecret' | 'scopes'>,
): Promise<string> {
  const [inserted] = await db.insert(upstreamProviders).values(row).returning({ id: upstreamProviders.id });
  if (!inserted) throw new Error('the provider row was not returned');
  return inserted.id;
}

/** Every binding, by domain. */
export function listDomainBindings(db: Db): Promise<DomainBinding[]> {
  return db.select().from(upstreamDomains).orderBy(asc(upstreamDomains.domain));
}

/** The domains bound to a provider, sorted. */
export async function domainsOf(db: Db, providerId: string): Promise<string[]> {
  const bindings = await db
    .select({ domain: upstreamDomains.domain })
    .from(upstreamDomains)
    .where(eq(upstreamDomains.providerId, providerId))
    .orderBy(asc(upstreamDomains.domain));
  return bindings.map((binding) => binding.domain);
}

/** The bindings of any of `domains`, by domain. */
export function findDomainBindings(db: Db, domains: readonly string[]): Promise<DomainBinding[]> {
  return db
    .select()
    .from(upstreamDomains)
    .where(inArray(upstreamDomains.domain, [...domains]))
    .orderBy(asc(upstreamDomains.domain));
}

/** A domain already bound (a concurrent binding) fails on the primary key. */
export async function insertDomainBindings(db: Db, bindings: readonly DomainBinding[]): Promise<void> {
  await db.insert(upstreamDomains).values([...bindings]);
}

/** Removes the binding of `domain` to this provider; false when there was none. */
export async function deleteDomainBinding(db: Db, binding: DomainBinding): Promise<boolean> {
  const removed = await db
    .delete(upstreamDomains)
    .where(
      and(eq(upstreamDomains.domain, binding.domain), eq(upstreamDomains.providerId, binding.providerId)),
    )
    .returning({ domain: upstreamDomains.domain });
  return removed.length > 0;
}

/** The accounts linked to the provider, with their normalised addresses, by id. */
export function accountsLinkedTo(
  db: Db,
  providerId: string,
): Promise<{ id: string; emailNormalized: string }[]> {
  return db
    .select({ id: accounts.id, emailNormalized: accounts.emailNormalized })
    .from(accounts)
    .where(eq(accounts.externalIdpId, providerId))
    .orderBy(asc(accounts.id));
}

/** Ids per statement: far below the 65535 parameters PostgreSQL takes in one. */
const UNLINK_BATCH = 1000;

/**
 * Unlinks the accounts from the provider's identities, only while still linked to it, and forgets any
 * password they kept from before they were linked; answers the ids of the accounts it unlinked.
 */
export async function unlinkAccounts(
  db: Db,
  providerId: string,
  accountIds: readonly string[],
): Promise<string[]> {
  const unlinked: string[] = [];
  for (let start = 0; start < accountIds.length; start += UNLINK_BATCH) {
    const batch = accountIds.slice(start, start + UNLINK_BATCH);
    const rows = await db
      .update(accounts)
      .set({ externalIdpId: null, externalSubject: null, passwordHash: null, updatedAt: sql`now()` })
      .where(and(eq(accounts.externalIdpId, providerId), inArray(accounts.id, batch)))
      .returning({ id: accounts.id });
    unlinked.push(...rows.map((row) => row.id));
  }
  return unlinked;
}
