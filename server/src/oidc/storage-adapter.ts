import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import { findSignInBinding } from '../accounts/account-repository.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import type { ClientCache } from './client-cache.ts';
import { findClientMetadata } from './clients.ts';
import {
  consumePayload,
  deleteGrantPayloads,
  destroyPayload,
  endGrant,
  findLivePayload,
  GRANT_TOKEN_MODELS,
  updatePayload,
  upsertPayload,
  upsertPayloadRecording,
} from './oidc-repository.ts';
import {
  forgetFound,
  forgetRequestReads,
  noteFound,
  noteGrantCreated,
  noteSessionEnded,
  readOncePerRequest,
  resumedSignIn,
  sessionEndedMeanwhile,
  takeGrantsCreated,
  wasFound,
} from './request-reads.ts';
import { pastAbsoluteEnd, type SessionLifetimes } from './session-lifetime.ts';
import { signInStillBound, takeSignInRecord } from './sign-in-result.ts';

/**
 * The models a request may find, change and save again: the browser's session and a grant. Ending
 * an account's sign-ins (a reset, a disable, a deletion: DESIGN §2) deletes their rows; a request that
 * read one before that and saves it after must not write it back, or the session (and the grant its
 * new code names) would outlive the reset. So a save of one this request found is an update of the
 * row, which writes nothing once the row is gone.
 */
const NOT_REVIVED = new Set(['Session', 'Grant']);

/**
 * What oidc-provider answers a second use of each model it consumes (helpers/grant_source.js,
 * actions/grants/refresh_token.js, actions/authorization/respond.js), and whether that use revokes the
 * grant. It checks `consumed` after a find and consumes after its other checks, so two requests (on two
 * instances, or one) can both find a code unspent: consume() lets one of them spend it and gives the
 * other this answer, as if it had come second.
 */
const SECOND_USE: Readonly<Record<string, { readonly refusal: () => Error; readonly revokes: boolean }>> = {
  AuthorizationCode: {
    refusal: () => new errors.InvalidGrant('authorization code already consumed'),
    revokes: true,
  },
  RefreshToken: { refusal: () => new errors.InvalidGrant('refresh token already used'), revokes: true },
  DeviceCode: { refusal: () => new errors.InvalidGrant('device code already consumed'), revokes: true },
  BackchannelAuthenticationRequest: {
    refusal: () => new errors.InvalidGrant('backchannel authentication request already consumed'),
    revokes: true,
  },
  PushedAuthorizationRequest: {
    refusal: () => new errors.InvalidRequestUri('request_uri is invalid, expired, or was already used'),
    revokes: false,
  },
};

/** What oidc-provider's `adapter` setting takes: a class built per model. */
type AdapterClass = new (model: string) => Adapter;

/** What the storage adapter needs beside the database and its clock. */
export interface AdapterOptions {
  /** Client registrations kept across requests (client-cache.ts); absent: read at each request. */
  readonly clients?: ClientCache;
  /** A session past its absolute end is not found (session-lifetime.ts). */
  readonly sessionLifetimes: SessionLifetimes;
}

/**
 * oidc-provider's storage in the database (PGlite or PostgreSQL), so any instance can continue a flow
 * another one started. Expiry is stamped and checked against `clock` (the database's in the service,
 * DESIGN §2) on every write and read, exactly: the provider's own check of a payload's `exp` allows
 * 15 seconds of clock skew. Client registrations come from `clients` when given (client-cache.ts:
 * on PostgreSQL, while their changes are heard), else from the database at each read. A session past
 * its absolute end (`sessionLifetimes`, session-lifetime.ts) is not found; that end is judged by Date,
 * the clock oidc-provider stamps the session's login time with.
 */
export function databaseAdapter(db: Db, clock: Clock, options: AdapterOptions): AdapterClass {
  const { clients, sessionLifetimes } = options;
  /**
   * Ends the grants this request created, with what was issued under them (its code): the session
   * they were for is gone, so nothing of the sign-in may outlast it, a code with offline_access (not
   * bound to the session) included.
   */
  async function endCreatedGrants(): Promise<void> {
    for (const grantId of takeGrantsCreated()) await endGrant(db, grantId);
  }

  /** The session this request found is gone, ended by someone else meanwhile. */
  async function sessionEnded(): Promise<void> {
    noteSessionEnded();
    await endCreatedGrants();
  }

  /**
   * A resume signs the browser in after checking the sign-in against the account
   * (forgetOutdatedSignIn); a reset, disable or deletion that commits between that check and the
   * resume's writes ended the account's sessions before this one was written, or ends them while it
   * waits for the account's row here. So once the session is written the account is read again,
   * after any such transaction: changed, the session and the grants of this request go.
   */
  async function undoEndedSignIn(sessionId: string, payload: AdapterPayload): Promise<void> {
    const resumed = resumedSignIn();
    if (!resumed || payload.accountId !== resumed.accountId) return;
    try {
      if (signInStillBound(await findSignInBinding(db, resumed.accountId), resumed)) return;
    } catch (error) {
      // Unable to tell (an outage): what was written goes, as far as it can, and the resume fails.
      await Promise.allSettled([destroyPayload(db, 'Session', sessionId), sessionEnded()]);
      throw error;
    }
    await destroyPayload(db, 'Session', sessionId);
    await sessionEnded();
  }

  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      forgetRequestReads(`${this.model}:`);
      const key = { model: this.model, id };
      // One it found is no concern of it: ended, it is gone, and a code naming it is refused.
      if (this.model === 'Grant' && !wasFound(this.model, id)) noteGrantCreated(id);
      // The browser's session was ended under this request (a reset, a disable): nothing more of
      // its sign-in is written, not even under the new id a resume gives the session.
      if (this.model === 'Session' && sessionEndedMeanwhile()) return endCreatedGrants();
      if (wasFound(this.model, id)) {
        const written = await updatePayload(db, clock, key, payload, expiresIn);
        if (!written && this.model === 'Session') return sessionEnded();
      } else {
        const record = takeSignInRecord(this.model, id);
        if (record) await upsertPayloadRecording(db, clock, key, payload, expiresIn, record);
        else await upsertPayload(db, clock, key, payload, expiresIn);
      }
      if (this.model === 'Session') await undoEndedSignIn(id, payload);
    }

    private async findBy(by: 'id' | 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
      const row = await findLivePayload(db, clock, this.model, by, value);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      // Stryker disable next-line ConditionalExpression: only a Session's payload carries loginTs (oidc-provider's models), so no other is ever past; the guard spares them the look
      if (this.model === 'Session' && pastAbsoluteEnd(sessionLifetimes, payload)) return undefined;
      if (NOT_REVIVED.has(this.model)) noteFound(this.model, by === 'id' ? value : String(payload.jti));
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      // Clients are registered by the admin CLI/API in their own table, not by dynamic registration.
      if (this.model === 'Client') {
        return clients ? clients.read(id, () => findClientMetadata(db, id)) : findClientMetadata(db, id);
      }
      return this.findBy('id', id);
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      // A session is read by uid twice in a token request (request-reads.ts); once is enough. Each
      // reader gets its own copy, so a model built on one answer never changes another's.
      if (this.model === 'Session') {
        const read = await readOncePerRequest(`Session:uid:${uid}`, () => this.findBy('uid', uid));
        return read && structuredClone(read);
      }
      return this.findBy('uid', uid);
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findBy('userCode', userCode);
    }

    /**
     * Spends the payload once. Lost to a concurrent use, it refuses like a second use and, like one
     * (RFC 6749 §4.1.2: a code used twice revokes what it issued), takes the grant's tokens and the
     * grant away.
     */
    async consume(id: string): Promise<void> {
      const { consumed, grantId } = await consumePayload(db, clock, this.model, id);
      const secondUse = SECOND_USE[this.model];
      if (consumed || !secondUse) return;
      if (secondUse.revokes && grantId !== null) await endGrant(db, grantId);
      throw secondUse.refusal();
    }

    async destroy(id: string): Promise<void> {
      forgetRequestReads(`${this.model}:`);
      const found = wasFound(this.model, id);
      forgetFound(this.model, id);
      const destroyed = await destroyPayload(db, this.model, id);
      // A resume replaces the session's id: it destroys the one it found, then saves the new one. Found
      // and already gone, it was ended meanwhile, and the new one must not take its place.
      if (found && !destroyed && this.model === 'Session') await sessionEnded();
    }

    revokeByGrantId(grantId: string): Promise<void> {
      return deleteGrantPayloads(db, grantId, GRANT_TOKEN_MODELS);
    }
  };
}
