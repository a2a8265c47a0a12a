import { and, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import { type Db, oidcPayloads } from '../store/tables/index.ts';

/**
 * Ends every sign-in session of an account (DESIGN §2 Reset password): its Session rows, its Grants and
 * every token issued under them, so nobody who knew the old password stays signed in or can refresh.
 */
export async function endAccountSessions(db: Db, accountId: string): Promise<void> {
  const ofAccount = sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`;
  const grants = await db
    .select({ id: oidcPayloads.id })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Grant'), ofAccount));
  const grantIds = grants.map((grant) => grant.id);
  if (grantIds.length > 0) {
    await db
      .delete(oidcPayloads)
      .where(
        or(
          and(isNotNull(oidcPayloads.grantId), inArray(oidcPayloads.grantId, grantIds)),
          and(eq(oidcPayloads.type, 'Grant'), inArray(oidcPayloads.id, grantIds)),
        ),
      );
  }
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.type, 'Session'), ofAccount));
}
