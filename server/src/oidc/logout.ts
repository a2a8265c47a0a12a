import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { findAccountById } from '../accounts/account-repository.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Db } from '../store/database.ts';
import { logoutRequests, oidcPayloads } from '../store/tables/index.ts';

const LOGOUT_REQUEST_TTL_MS = 10 * 60_000;

function hashOf(logoutId: string): string {
  return createHash('sha256').update(logoutId).digest('hex');
}

/**
 * The provider's end-session endpoint ends here (RP-initiated logout): the validated request is stored
 * under a random logoutId and the browser goes to the SPA's /logout page, which calls /api/Logout.
 */
export async function startLogout(db: Db, ctx: KoaContextWithOIDC): Promise<void> {
  const { session, params, client } = ctx.oidc;
  const logoutId = randomBytes(32).toString('base64url');
  const postLogoutRedirectUri =
    typeof params?.post_logout_redirect_uri === 'string' ? params.post_logout_redirect_uri : null;
  await db.insert(logoutRequests).values({
    idHash: hashOf(logoutId),
    sessionId: session?.jti ?? '',
    accountId: session?.accountId ?? null,
    clientId: client?.clientId ?? null,
    // The provider has already refused a post_logout_redirect_uri not registered for this client.
    postLogoutRedirectUri,
    state: typeof params?.state === 'string' ? params.state : null,
    expiresAt: new Date(Date.now() + LOGOUT_REQUEST_TTL_MS),
  });
  ctx.status = 303;
  ctx.redirect(`/logout?logoutId=${encodeURIComponent(logoutId)}`);
}

export interface LogoutOutcome {
  username: string;
  postLogoutRedirectUri: string | null;
}

/** The post-logout URI with the relying party's state appended, as the end-session spec requires. */
function withState(uri: string | null, state: string | null): string | null {
  if (uri === null) return null;
  if (state === null) return uri;
  const url = new URL(uri);
  url.searchParams.set('state', state);
  return url.href;
}

/**
 * Ends the session of a stored logout request: the session and every grant it holds are deleted, so
 * no token of it can be refreshed. Idempotent while the request lives (a reload shows the same page).
 */
export async function finishLogout(
  db: Db,
  logoutId: string,
  ip: string | null,
): Promise<LogoutOutcome | null> {
  const [request] = await db
    .select()
    .from(logoutRequests)
    .where(and(eq(logoutRequests.idHash, hashOf(logoutId)), gt(logoutRequests.expiresAt, sql`now()`)));
  if (!request) return null;

  const firstTime = await db
    .update(logoutRequests)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(logoutRequests.idHash, request.idHash), isNull(logoutRequests.consumedAt)))
    .returning({ idHash: logoutRequests.idHash });
  if (firstTime.length === 1) {
    await endSession(db, request.sessionId);
    await recordAudit(db, { event: 'logout', outcome: 'success', accountId: request.accountId, ip });
  }
  const account = request.accountId ? await findAccountById(db, request.accountId) : null;
  return {
    username: account?.displayName ?? '',
    postLogoutRedirectUri: withState(request.postLogoutRedirectUri, request.state),
  };
}

async function endSession(db: Db, sessionId: string): Promise<void> {
  if (sessionId === '') return;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ payload: oidcPayloads.payload })
      .from(oidcPayloads)
      .where(and(eq(oidcPayloads.type, 'Session'), eq(oidcPayloads.id, sessionId)));
    const authorizations = (row?.payload.authorizations ?? {}) as Record<string, { grantId?: string }>;
    for (const { grantId } of Object.values(authorizations)) {
      if (!grantId) continue;
      await tx.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
      await tx.delete(oidcPayloads).where(and(eq(oidcPayloads.type, 'Grant'), eq(oidcPayloads.id, grantId)));
    }
    await tx
      .delete(oidcPayloads)
      .where(and(eq(oidcPayloads.type, 'Session'), eq(oidcPayloads.id, sessionId)));
  });
}
