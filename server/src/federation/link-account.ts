import {
  type Account,
  bindExternalIdentity,
  findAccountByEmail,
  findAccountByExternalIdentity,
  insertAccount,
  linkExternalIdentity,
} from '../accounts/account-repository.ts';
import { bindingLookupKey } from '../accounts/domain-key.ts';
import { emailDomain } from '../accounts/identifiers.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { isUniqueViolation } from '../store/sql-state.ts';
import { providerIdBoundToHeld } from './federation-repository.ts';
import { followUpstreamAddress } from './upstream-address.ts';

export interface VerifiedIdentity {
  readonly providerId: string;
  /** The provider's `sub`: stable for the person even if the address changes there. */
  readonly subject: string;
  /** Verified by the provider (email_verified === true) and of a domain bound to it. */
  readonly email: string;
  readonly displayName: string;
}

export type LinkResult =
  | { readonly ok: true; readonly account: Account; readonly how: 'provisioned' | 'linked' | 'returning' }
  | { readonly ok: false; readonly reason: 'account_disabled' | 'linked_elsewhere' | 'domain_not_bound' };

/**
 * Finds, links or provisions the local account of an upstream identity (DESIGN §1 Federation).
 *
 * The account already bound to the identity is the person's, whatever address the provider now
 * sends: only the issuer and `sub` identify a person, an address can change (OpenID Connect Core
 * §5.7). It is refused when disabled and otherwise follows the new address (upstream-address.ts).
 * Looking it up by address instead would provision a second, enabled account when the address
 * changed upstream, past an administrator's disable and under a new `sub` for every relying party.
 *
 * An identity bound to no account is linked by verified e-mail. Policy: an existing local account of
 * that address is linked to the provider, even one that has a password. An admin bound the address's
 * domain to this provider, which makes the provider the authority for every address of the domain:
 * home-realm discovery already sends those people there and never to the password step, and the
 * provider has just verified that this person holds the address. Refusing would strand exactly the
 * accounts that existed before the binding.
 * What is refused: an account linked to another provider or to another subject of this one (the
 * address was re-assigned upstream; the earlier person's account is not handed to the new one), and
 * a disabled account.
 */
export async function linkOrProvisionAccount(
  { db, clock }: { readonly db: Db; readonly clock: Clock },
  identity: VerifiedIdentity,
): Promise<LinkResult> {
  const bound = await findAccountByExternalIdentity(db, identity);
  if (bound) return signInBound(db, clock, bound, identity);
  try {
    return await db.transaction(async (tx) => {
      // Still bound, and held so until this link commits: an unbind of the domain that races this
      // callback either went first (refused here) or waits and then unlinks what this links
      // (unlink-domain.ts), so no account is left linked to a provider that no domain leads to.
      const held = await providerIdBoundToHeld(tx, bindingLookupKey(emailDomain(identity.email)) ?? '');
      if (held !== identity.providerId) return { ok: false, reason: 'domain_not_bound' };
      const existing = await findAccountByEmail(tx, identity.email);
      if (!existing) {
        const created = await insertAccount(tx, { email: identity.email, displayName: identity.displayName });
        // Someone else created the address a moment ago: treat it as existing, under the same rules.
        if (!created) return linkExisting(tx, identity);
        await bindExternalIdentity(tx, created.id, identity);
        return { ok: true, account: created, how: 'provisioned' };
      }
      return linkExisting(tx, identity);
    });
  } catch (error) {
    // A parallel callback bound the identity to another account first (account_external_identity_idx);
    // nothing of this attempt was kept, and the next sign-in finds that account by the identity.
    if (!isUniqueViolation(error)) throw error;
    return { ok: false, reason: 'linked_elsewhere' };
  }
}

async function signInBound(
  db: Db,
  clock: Clock,
  account: Account,
  identity: VerifiedIdentity,
): Promise<LinkResult> {
  if (account.disabledAt) return { ok: false, reason: 'account_disabled' };
  return { ok: true, account: await followUpstreamAddress(db, clock, account, identity), how: 'returning' };
}

async function linkExisting(db: Db, identity: VerifiedIdentity): Promise<LinkResult> {
  const account = await findAccountByEmail(db, identity.email);
  if (!account) throw new Error('the account disappeared during linking');
  if (account.disabledAt) return { ok: false, reason: 'account_disabled' };
  if (account.externalIdpId === identity.providerId && account.externalSubject === identity.subject) {
    return { ok: true, account, how: 'returning' };
  }
  // Bound only when still unbound (or bound to this provider without a subject yet), so two callbacks
  // racing for one account cannot both win.
  const linked = await linkExternalIdentity(db, account.id, identity);
  if (!linked) return { ok: false, reason: 'linked_elsewhere' };
  return { ok: true, account, how: 'linked' };
}
