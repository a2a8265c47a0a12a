import { eq } from 'drizzle-orm';
import * as oidc from 'openid-client';
import type { Db } from '../store/database.ts';
import { upstreamProviders } from '../store/tables/index.ts';
import { isLoopbackHttpIssuer } from './issuer-url.ts';

/** An upstream provider as the sign-in flow needs it, secret included (never shown to admins). */
export type UpstreamProviderRecord = typeof upstreamProviders.$inferSelect;

export async function findProviderRecord(db: Db, providerId: string): Promise<UpstreamProviderRecord | null> {
  const [row] = await db
    .select()
    .from(upstreamProviders)
    .where(eq(upstreamProviders.id, providerId))
    .limit(1);
  return row ?? null;
}

/**
 * The openid-client configuration of a provider, from its discovery document. openid-client checks
 * that the document's issuer is exactly the registered one, so a provider cannot speak for another.
 */
export async function upstreamConfiguration(provider: UpstreamProviderRecord): Promise<oidc.Configuration> {
  const insecure = isLoopbackHttpIssuer(provider.issuer);
  return oidc.discovery(
    new URL(provider.issuer),
    provider.clientId,
    provider.clientSecret,
    oidc.ClientSecretBasic(provider.clientSecret),
    // Plain http only ever reaches a loopback issuer (issuer-url.ts isAcceptableIssuer).
    insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
  );
}
