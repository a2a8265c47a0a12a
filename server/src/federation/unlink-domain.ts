import { bindingLookupKey } from '../accounts/domain-key.ts';
import { emailDomain } from '../accounts/identifiers.ts';
import type { Db } from '../store/database.ts';
import { accountsLinkedTo, type DomainBinding, unlinkAccounts } from './federation-repository.ts';

/**
 * When a domain's binding goes, the accounts of that domain linked to its provider are unlinked
 * (answers their ids). A linked account never signs in with a password (accounts/login.ts), is sent
 * "sign in through your organisation" by forgot-password and is not invited: kept linked with no
 * binding left to send it upstream, it could not sign in at all. Unlinked, it sets a password through
 * forgot-password, and a later binding links it again by its verified address (link-account.ts).
 * A password it kept from before it was linked is not revived: the organisation may have offboarded
 * the person meanwhile, which that password would outlive (accounts/login.ts); the mailed reset link
 * asks them to hold the address first.
 *
 * Accounts linked to the provider with an address of another domain keep their link. The domain is
 * compared in its binding form, as sign-in and home-realm discovery compare it (accounts/domain-key.ts),
 * so an address written with the Unicode form of an IDNA domain counts; that is why the comparison is
 * made here and not in SQL.
 */
export async function unlinkAccountsOfDomain(db: Db, binding: DomainBinding): Promise<string[]> {
  const linked = await accountsLinkedTo(db, binding.providerId);
  const ofDomain = linked.filter(
    (account) => bindingLookupKey(emailDomain(account.emailNormalized)) === binding.domain,
  );
  return unlinkAccounts(
    db,
    binding.providerId,
    ofDomain.map((account) => account.id),
  );
}
