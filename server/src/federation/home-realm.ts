import { bindingLookupKey } from '../accounts/domain-key.ts';
import type { Db } from '../store/database.ts';
import { providerIdBoundTo } from './federation-repository.ts';

/**
 * Home-realm discovery (DESIGN §1): the upstream provider bound to an e-mail domain, if any. It looks at
 * the domain only, so the answer never depends on whether an account exists.
 */
export async function upstreamProviderIdForDomain(db: Db, domain: string): Promise<string | null> {
  const lookup = bindingLookupKey(domain);
  if (lookup === null) return null;
  return providerIdBoundTo(db, lookup);
}
