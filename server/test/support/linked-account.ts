import { eq } from 'drizzle-orm';
import type { Db } from '../../src/store/database.ts';
import { accounts, upstreamProviders } from '../../src/store/tables/index.ts';

/**
 * Links the account to an upstream provider registered for it, as the person's first sign-in through
 * their organisation's provider does (federation/link-account.ts), without a provider to reach.
 */
export async function linkToUpstreamProvider(db: Db, accountId: string): Promise<void> {
  const [provider] = await db
    .insert(upstreamProviders)
    .values({
      name: 'Corp',
      issuer: 'https://idp.corp.example',
      clientId: 'keycard',
      clientSecret: 'secret',
      scopes: ['openid', 'email'],
    })
    .returning({ id: upstreamProviders.id });
  await db
    .update(accounts)
    .set({ externalIdpId: provider?.id, externalSubject: `corp-${accountId}` })
    .where(eq(accounts.id, accountId));
}
