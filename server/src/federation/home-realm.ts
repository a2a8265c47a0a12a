import { eq } from 'drizzle-orm';
import type { Db } from '../store/database.ts';
import { upstreamDomains } from '../store/tables/index.ts';
import { normalizeDomain } from './domains.ts';

/**
 * The key a domain's binding is stored under, or null when there is no domain to bind (nothing is
 * bound to it). Bindings are stored in IDNA ASCII form, so "bücher.example" finds "xn--bcher-kva.example".
 */
export function bindingLookupKey(domain: string): string | null {
  const lookup = normalizeDomain(domain);
  return lookup === '' ? null : lookup;
}

/**
 * Home-realm discovery (DESIGN §1): the upstream provider bound to an e-mail domain, if any. It looks at
 * the domain only, so the answer never depends on whether an account exists.
 */
export async function upstreamProviderIdForDomain(db: Db, domain: string): Promise<string | null> {
  const lookup = bindingLookupKey(domain);
  if (lookup === null) return null;
  const [row] = await db
    .select({ providerId: upstreamDomains.providerId })
    .from(upstreamDomains)
    .where(eq(upstreamDomains.domain, lookup))
    .limit(1);
  return row?.providerId ?? null;
}
