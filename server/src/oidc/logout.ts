import { createHash, randomBytes } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { findAccountById } from '../accounts/account-repository.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { type ClientSession, queueLogoutTokens } from '../backchannel/backchannel-repository.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import {
  consumeLogoutRequest,
  deleteGrant,
  deleteSession,
  endAccountSessions,
  findAccountSessionPayloads,
  findLiveLogoutRequest,
  findSessionPayload,
  insertLogoutRequest,
} from './oidc-repository.ts';

const LOGOUT_REQUEST_TTL_MS = 10 * 60_000;

function hashOf(logoutId: string): string {
  return createHash('sha256').update(logoutId).digest('hex');
}

/** The `aud` of an ID token, read without verifying it (the provider verifies the hint itself). */
function audienceOf(idToken: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(idToken.split('.')[1] ?? '', 'base64url').toString('utf8'));
    const aud: unknown =
      Array.isArray(payload?.aud) && payload.aud.length === 1 ? payload.aud[0] : payload?.aud;
    return typeof aud === 'string' ? aud : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Provider middleware for the end-session endpoint (GET, as relying parties redirect there): a
 * post_logout_redirect_uri that is not registered for the request's client is dropped before the
 * provider sees it, so the person is still signed out and only the redirect back is withheld (issue:
 * "answers the post-logout URI only if registered"). Nothing is ever added or trusted here: a
 * request whose client cannot be told (bad hint, mismatch, unknown client) goes on unchanged and the
 * provider refuses it as before.
 */
export function dropUnregisteredPostLogoutUri(provider: Provider) {
  return async (ctx: { method: string; path: string; querystring: string }, next: () => Promise<void>) => {
    if (ctx.method === 'GET' && ctx.path === '/session/end') {
      const query = new URLSearchParams(ctx.querystring);
      const uri = query.get('post_logout_redirect_uri');
      const hint = query.get('id_token_hint');
      const clientId = (hint === null ? undefined : audienceOf(hint)) ?? query.get('client_id') ?? undefined;
      const client = clientId === undefined ? undefined : await provider.Client.find(clientId);
      if (uri !== null && client && !client.postLogoutRedirectUriAllowed(uri)) {
        query.delete('post_logout_redirect_uri');
        query.delete('state');
        ctx.querystring = query.toString();
      }
    }
    await next();
  };
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
  await insertLogoutRequest(db, {
    idHash: hashOf(logoutId),
    sessionId: session?.jti ?? '',
    accountId: session?.accountId ?? null,
    clientId: client?.clientId ?? null,
    // Registered for this client: an unregistered one was dropped (dropUnregisteredPostLogoutUri), and
    // the provider refuses one it cannot match to a client.
    postLogoutRedirectUri,
    state: typeof params?.state === 'string' ? params.state : null,
    expiresAt: new Date(Date.now() + LOGOUT_REQUEST_TTL_MS),
  });
  ctx.status = 303;
  ctx.redirect(`/logout?logoutId=${encodeURIComponent(logoutId)}`);
}

/** Where an ended session's logout tokens go (Back-Channel Logout 1.0): queued, then delivered by a worker. */
export interface LogoutQueue {
  /** What the queued tokens are stamped with: the clock the worker claims by. */
  readonly clock: Clock;
  /** Wakes the worker once the tokens are committed; never waits for a post, never throws. */
  nudge(): void;
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
  queue: LogoutQueue,
): Promise<LogoutOutcome | null> {
  const request = await findLiveLogoutRequest(db, hashOf(logoutId));
  if (!request) return null;

  if (await consumeLogoutRequest(db, request.idHash)) {
    // Queued with the session's end, posted later: a relying party never holds up this answer.
    if ((await endSession(db, request.sessionId, queue.clock)) > 0) queue.nudge();
    await recordAudit(db, { event: 'logout', outcome: 'success', accountId: request.accountId, ip });
  }
  const account = request.accountId ? await findAccountById(db, request.accountId) : null;
  return {
    username: account?.displayName ?? '',
    postLogoutRedirectUri: withState(request.postLogoutRedirectUri, request.state),
  };
}

type Authorizations = Record<string, { grantId?: string; sid?: string }>;

/** Each client the session signed in to, with the session's `sid` for it (the ID tokens' `sid`). */
function clientSessionsOf(authorizations: Authorizations): ClientSession[] {
  return Object.entries(authorizations).flatMap(([clientId, { sid }]) =>
    typeof sid === 'string' ? [{ clientId, sid }] : [],
  );
}

/**
 * Ends every session and grant of an account (a password reset, an admin disable or delete) and queues
 * a logout token for each client of each session, as a sign-out does: relying parties learn that the
 * person is signed out there too. Runs inside the caller's transaction, with a clock that does not
 * query outside it; answers how many tokens were queued (the worker finds them at its next poll).
 */
export async function endAccountSessionsWithLogout(db: Db, clock: Clock, accountId: string): Promise<number> {
  const sessions = await findAccountSessionPayloads(db, accountId);
  await endAccountSessions(db, accountId);
  const clientSessions = sessions.flatMap((payload) =>
    clientSessionsOf((payload.authorizations ?? {}) as Authorizations),
  );
  return queueLogoutTokens(db, clock, accountId, clientSessions);
}

/** Ends the session and queues a logout token for each of its clients; answers how many were queued. */
async function endSession(db: Db, sessionId: string, clock: Clock): Promise<number> {
  if (sessionId === '') return 0;
  return db.transaction(async (tx) => {
    const payload = await findSessionPayload(tx, sessionId);
    const authorizations = (payload?.authorizations ?? {}) as Authorizations;
    for (const { grantId } of Object.values(authorizations)) {
      if (grantId) await deleteGrant(tx, grantId);
    }
    await deleteSession(tx, sessionId);
    const accountId = payload?.accountId;
    if (typeof accountId !== 'string') return 0;
    return queueLogoutTokens(tx, clock, accountId, clientSessionsOf(authorizations));
  });
}
