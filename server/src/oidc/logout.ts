import { createHash, randomBytes } from 'node:crypto';
import type Provider from 'oidc-provider';
import type { Client, KoaContextWithOIDC } from 'oidc-provider';
import { countSessionsEnded, findAccountById } from '../accounts/account-repository.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { type ClientSession, queueLogoutTokens } from '../backchannel/backchannel-repository.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { retriedTransaction } from '../store/retried-transaction.ts';
import {
  consumeLogoutRequest,
  deleteGrant,
  deleteSession,
  endAccountSessions,
  endGrant,
  findAccountSessionPayloads,
  findLiveLogoutRequest,
  findSessionPayload,
  insertLogoutRequest,
  type NewLogoutRequest,
} from './oidc-repository.ts';
import { protocolRoute } from './protocol-routes.ts';

type Middleware = Parameters<Provider['use']>[0];

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

/** Whether the hint is an ID token this provider issued to `client` (signature, issuer, audience). */
async function isValidHint(provider: Provider, hint: string, client: Client): Promise<boolean> {
  try {
    await provider.IdToken.validate(hint, client);
    return true;
  } catch {
    return false;
  }
}

/**
 * Provider middleware for the end-session endpoint (GET, as relying parties redirect there), before the
 * provider sees the request:
 * - an id_token_hint of a known client that fails validation vouches for nothing: it is dropped with
 *   the post_logout_redirect_uri and state, so the person is asked (startLogout) and not sent back
 *   (RP-Initiated Logout 1.0 §2: no redirection after a failed validation);
 * - a post_logout_redirect_uri that is not registered for the request's client is dropped, so the
 *   person can still sign out and only the redirect back is withheld.
 * Nothing is ever added or trusted here: a request whose client cannot be told (a hint that does not
 * decode, an unknown audience, a client_id mismatch) goes on unchanged and the provider refuses it.
 */
export function screenEndSessionRequest(provider: Provider) {
  return async (ctx: { method: string; path: string; querystring: string }, next: () => Promise<void>) => {
    // As the provider routes it: any letter case, one trailing slash.
    if (ctx.method === 'GET' && protocolRoute(ctx.path) === '/session/end') {
      const asked = new URLSearchParams(ctx.querystring);
      const query = new URLSearchParams(asked);
      const hint = query.get('id_token_hint');
      const audience = hint === null ? undefined : audienceOf(hint);
      const hinted = audience === undefined ? undefined : await provider.Client.find(audience);
      if (hint !== null && hinted && !(await isValidHint(provider, hint, hinted))) {
        for (const name of ['id_token_hint', 'post_logout_redirect_uri', 'state']) query.delete(name);
      }
      const uri = query.get('post_logout_redirect_uri');
      const clientId = query.has('id_token_hint') ? audience : (query.get('client_id') ?? undefined);
      const client = clientId === undefined ? undefined : await provider.Client.find(clientId);
      if (uri !== null && client && !client.postLogoutRedirectUriAllowed(uri)) {
        query.delete('post_logout_redirect_uri');
        query.delete('state');
      }
      if (query.toString() !== asked.toString()) ctx.querystring = query.toString();
    }
    await next();
  };
}

/**
 * RP-Initiated Logout 1.0 §2: the OP must ask the person unless the request carries an ID token that
 * belongs to the current session and its account. The provider has validated a hint it got (it refuses
 * the request otherwise); here it must also be this account's, from this very session: an ID token of
 * another account, or one issued in an earlier session, does not vouch for ending this one.
 */
function hintVouches(ctx: KoaContextWithOIDC): boolean {
  const { session, client, entities } = ctx.oidc;
  const payload = entities.IdTokenHint?.payload;
  if (!payload || !client || !session?.accountId) return false;
  if (payload.sub !== session.accountId) return false;
  return payload.sid === undefined || payload.sid === session.sidFor(client.clientId);
}

/**
 * The provider's end-session endpoint ends here (RP-initiated logout) for a browser with a signed-in
 * session: the validated request is stored under a random logoutId, with whether a valid hint vouches
 * for it, and the browser goes to the SPA's /logout page, which calls /api/Logout (asking first when no
 * hint vouched). Nothing ends here: a page on any site can send a browser to this endpoint.
 */
export async function startLogout(db: Db, ctx: KoaContextWithOIDC): Promise<void> {
  // Stryker disable OptionalChaining,ConditionalExpression,StringLiteral: the provider calls this only for a signed-in session, with the request's parameters; the guards are for the types (a parameter not given is stored as null either way)
  const { session, params, client } = ctx.oidc;
  const postLogoutRedirectUri =
    typeof params?.post_logout_redirect_uri === 'string' ? params.post_logout_redirect_uri : null;
  await showLogoutPage(db, ctx, {
    sessionId: session?.jti ?? '',
    accountId: session?.accountId ?? null,
    clientId: client?.clientId ?? null,
    // Registered for this client: an unregistered one was dropped (screenEndSessionRequest), and
    // the provider refuses one it cannot match to a client.
    postLogoutRedirectUri,
    state: typeof params?.state === 'string' ? params.state : null,
    // Stryker restore all
    hintVerified: hintVouches(ctx),
  });
}

/**
 * The provider's end-session ends here for a browser without a signed-in session (nothing to end)
 * whose relying party gave no post-logout redirect: the SPA's /logout page says it is signed out, as
 * after any sign-out, instead of the provider's own page (in English only, not the service's). The
 * request it reads is stored as done and names no one.
 */
export async function showSignedOut(db: Db, ctx: KoaContextWithOIDC): Promise<void> {
  await showLogoutPage(db, ctx, {
    // Stryker disable next-line StringLiteral: the request is used up already, so its session is never looked for
    sessionId: '',
    accountId: null,
    // No way back to keep or take away (a removal withholds a client's redirects by this id).
    clientId: null,
    postLogoutRedirectUri: null,
    state: null,
    consumedAt: new Date(),
  });
}

type LogoutRequestFields = Omit<NewLogoutRequest, 'idHash' | 'expiresAt'>;

/** Stores the request under a random logoutId and sends the browser to the SPA's /logout page with it. */
async function showLogoutPage(db: Db, ctx: KoaContextWithOIDC, request: LogoutRequestFields): Promise<void> {
  const logoutId = randomBytes(32).toString('base64url');
  await insertLogoutRequest(db, { ...request, idHash: hashOf(logoutId) }, LOGOUT_REQUEST_TTL_MS);
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

/** What /api/Logout asks to do: the stored request, and whether the person confirmed the sign-out. */
export interface LogoutAnswer {
  logoutId: string;
  confirmed?: boolean | undefined;
}

/**
 * Ends the session of a stored logout request: the session and every grant it holds are deleted, so
 * no token of it can be refreshed. A request no valid hint vouched for ends nothing until the person
 * confirms (`unconfirmed`; RP-Initiated Logout 1.0 §2). Idempotent while the request lives (a reload
 * shows the same page, without asking again once it is done).
 */
export async function finishLogout(
  db: Db,
  { logoutId, confirmed }: LogoutAnswer,
  ip: string | null,
  queue: LogoutQueue,
): Promise<LogoutOutcome | 'unknown' | 'unconfirmed'> {
  const request = await findLiveLogoutRequest(db, hashOf(logoutId));
  if (!request) return 'unknown';
  if (!request.hintVerified && request.consumedAt === null && confirmed !== true) return 'unconfirmed';

  // The request is used up with the session's end and its audit row, or not at all: a sign-out that
  // failed half-way would otherwise leave the session living while its page (reloaded) says done.
  // Run again after a conflict with another transaction on the same rows (a client's removal, say).
  const { queued, current } = await retriedTransaction(db, async (tx) => {
    const firstTime = await consumeLogoutRequest(tx, request.idHash);
    if (!firstTime) return { queued: 0, current: await findLiveLogoutRequest(tx, request.idHash) };
    const tokens = await endSession(tx, request.sessionId, queue.clock);
    await recordAudit(tx, { event: 'logout', outcome: 'success', accountId: request.accountId, ip });
    return { queued: tokens, current: firstTime };
  });
  // Queued with the session's end, posted later: a relying party never holds up this answer.
  if (queued > 0) queue.nudge();
  const account = request.accountId ? await findAccountById(db, request.accountId) : null;
  return {
    // No one for a browser that was not signed in (showSignedOut).
    username: account?.displayName ?? '',
    // As the request stands now, not as first read: a client's removal committed meanwhile has taken
    // away the way back to it (withholdLogoutRedirects). Undefined only when it expired in between.
    // Stryker disable next-line OptionalChaining: read live a moment before, so only an expiry between the two reads leaves it undefined
    postLogoutRedirectUri: withState(current?.postLogoutRedirectUri ?? null, current?.state ?? null),
  };
}

type Authorizations = Record<string, { grantId?: string; sid?: string }>;

/** Each client the session signed in to, with the session's `sid` for it (the ID tokens' `sid`). */
function clientSessionsOf(authorizations: Authorizations): ClientSession[] {
  return Object.entries(authorizations).flatMap(([clientId, { sid }]) =>
    // Stryker disable next-line ConditionalExpression: the provider gives every entry its sid; the guard is for the stored JSON's type
    typeof sid === 'string' ? [{ clientId, sid }] : [],
  );
}

/**
 * Ends every session and grant of an account (a password reset, an admin disable or delete) and queues
 * a logout token for each client of each session, as a sign-out does: relying parties learn that the
 * person is signed out there too. Sign-ins that have finished but are not resumed yet end too: the
 * account's count of endings moves on, and their results name the count they saw (sign-in-result.ts).
 * Runs inside the caller's transaction, with a clock that does not query outside it; answers how many
 * tokens were queued (the worker finds them at its next poll).
 */
export async function endAccountSessionsWithLogout(db: Db, clock: Clock, accountId: string): Promise<number> {
  const sessions = await findAccountSessionPayloads(db, accountId);
  await endAccountSessions(db, accountId);
  await countSessionsEnded(db, accountId);
  const clientSessions = sessions.flatMap((payload) =>
    clientSessionsOf((payload.authorizations ?? {}) as Authorizations),
  );
  return queueLogoutTokens(db, clock, accountId, clientSessions);
}

/**
 * Another account signing in on a browser that has a session (a relying party's prompt=login or
 * max_age) ends that session first: the provider sends the browser through its own end-session
 * confirmation (its resume), which deletes the session and the grants it does not keep across a
 * sign-out. Once it has, this does what this service's sign-out does besides (finishLogout): every
 * grant of the session is deleted, an offline_access one too, a logout token is queued for each of
 * its clients with the session's sid, and the sign-out is recorded. The provider's own post of
 * logout tokens there is turned off (postNoLogoutTokens, provider.ts): it was made once, inside the
 * person's request, and refused the private networks BACKCHANNEL_PRIVATE_NETWORKS allows. A failure
 * here, after the provider has deleted the session, answers the outage page and queues nothing.
 */
export function endSessionLeftForAnotherAccount(provider: Provider, db: Db, queue: LogoutQueue): Middleware {
  const ended = new WeakSet<object>();
  provider.on('end_session.success', (ctx) => ended.add(ctx));
  return async (ctx, next) => {
    await next();
    if (!ended.has(ctx)) return;
    const { session, params } = (ctx as KoaContextWithOIDC).oidc;
    // Without `logout` the confirmation takes one client out of a session that lives on (a form the
    // person changed): that is no end of the session.
    if (!params?.logout) return;
    const accountId = session?.accountId;
    if (typeof accountId !== 'string') return;
    const authorizations = (session?.authorizations ?? {}) as Authorizations;
    const queued = await retriedTransaction(db, async (tx) => {
      // The provider resumes the other account's sign-in next, whose interaction names the first
      // session's grant: the grant and its tokens go, the interaction stays.
      for (const { grantId } of Object.values(authorizations)) {
        // Stryker disable next-line ConditionalExpression: the provider writes no entry without a grant; a missing id would delete nothing
        if (grantId) await endGrant(tx, grantId);
      }
      await recordAudit(tx, { event: 'logout', outcome: 'success', accountId, ip: ctx.ip });
      return queueLogoutTokens(tx, queue.clock, accountId, clientSessionsOf(authorizations));
    });
    if (queued > 0) queue.nudge();
  };
}

/**
 * Ends the session and queues a logout token for each of its clients, inside the caller's transaction;
 * answers how many were queued.
 */
async function endSession(tx: Db, sessionId: string, clock: Clock): Promise<number> {
  // Stryker disable next-line ConditionalExpression,StringLiteral: a request without a session names none; the statements below would find nothing either, this spares them
  if (sessionId === '') return 0;
  // Gone already (ended by a password reset, say): nothing to delete or tell anyone.
  const payload = await findSessionPayload(tx, sessionId);
  const authorizations = (payload?.authorizations ?? {}) as Authorizations;
  for (const { grantId } of Object.values(authorizations)) {
    // Stryker disable next-line ConditionalExpression: the provider writes no entry without a grant; a missing id would delete nothing
    if (grantId) await deleteGrant(tx, grantId);
  }
  await deleteSession(tx, sessionId);
  const accountId = payload?.accountId;
  // Stryker disable next-line ConditionalExpression: a session without an account holds no sign-ins, so there is no one to tell
  if (typeof accountId !== 'string') return 0;
  return queueLogoutTokens(tx, clock, accountId, clientSessionsOf(authorizations));
}
