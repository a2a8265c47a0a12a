import { eq } from 'drizzle-orm';
import { bindingLookupKey } from '../accounts/domain-key.ts';
import type { Db } from '../store/database.ts';
import { upstreamDomains } from '../store/tables/index.ts';

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
