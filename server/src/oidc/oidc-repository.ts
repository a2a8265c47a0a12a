import { type AnyColumn, and, asc, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { AdapterPayload } from 'oidc-provider';
import {
  failuresCleared,
  type SignInRecord,
  signInRecordPlaceholders,
} from '../accounts/account-repository.ts';
import { AUDIT_VALUES } from '../audit/audit-repository.ts';
import { deleteInBatches } from '../store/batched-delete.ts';
import { type Clock, PREPARED_NOW_MS } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { preparedPerDb } from '../store/prepared.ts';
import {
  auditEvents,
  logoutRequests,
  oidcClients,
  oidcPayloads,
  oidcResourceServers,
  oidcRevokedSigningKeys,
  oidcSigningKeys,
} from '../store/tables/index.ts';

/**
 * SQL of the provider's state (STYLE §6): registered clients and resource servers, the payloads of its storage adapter
 * (sessions, grants, codes, tokens, interactions), pending sign-outs and the rotated signing keys.
 */

// Clients

export type ClientRow = typeof oidcClients.$inferSelect;

/** A client's registration without its id. */
type ClientFields = Omit<typeof oidcClients.$inferInsert, 'clientId'>;

// Every protocol request reads its client: prepared (store/prepared.ts).
const clientById = preparedPerDb('oidc_client_by_id', (db) =>
  db
    .select()
    .from(oidcClients)
    .where(eq(oidcClients.clientId, sql.placeholder('clientId')))
    .limit(1),
);

export async function findClient(db: Db, clientId: string): Promise<ClientRow | null> {
  const [row] = await clientById(db).execute({ clientId });
  return row ?? null;
}

/** The client's row, locked until the transaction `db` ends. */
export async function findClientForUpdate(db: Db, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await db.select().from(oidcClients).where(eq(oidcClients.clientId, clientId)).for('update');
  return row;
}

/** Every registered client, by id. */
export function listClientRows(db: Db): Promise<ClientRow[]> {
  return db.select().from(oidcClients).orderBy(asc(oidcClients.clientId));
}

/**
 * A client's row, held until the caller's transaction ends against its removal: a delete waits for
 * it, and it for a delete (and for updateClient's FOR UPDATE, so a check reads the committed row).
 */
export async function findClientKeyShared(db: Db, clientId: string): Promise<ClientRow | undefined> {
  const [row] = await db
    .select()
    .from(oidcClients)
    .where(eq(oidcClients.clientId, clientId))
    .for('key share');
  return row;
}

/** The scope registered for a client; undefined when there is no such client. */
export async function clientScope(db: Db, clientId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ scope: oidcClients.scope })
    .from(oidcClients)
    .where(eq(oidcClients.clientId, clientId))
    .limit(1);
  return row?.scope;
}

/** Every client's redirect and post-logout URIs. */
export function clientRedirectUris(db: Db) {
  return db
    .select({ redirectUris: oidcClients.redirectUris, postLogout: oidcClients.postLogoutRedirectUris })
    .from(oidcClients);
}

/** Registers a client; undefined when its id is taken. */
export async function insertClient(
  db: Db,
  row: typeof oidcClients.$inferInsert,
): Promise<ClientRow | undefined> {
  const [inserted] = await db
    .insert(oidcClients)
    .values(row)
    .onConflictDoNothing({ target: oidcClients.clientId })
    .returning();
  return inserted;
}

/** Registers a client, or overwrites the registration of that id. */
export async function saveClient(db: Db, clientId: string, fields: ClientFields): Promise<void> {
  await db
    .insert(oidcClients)
    .values({ clientId, ...fields })
    .onConflictDoUpdate({ target: oidcClients.clientId, set: fields });
}

/** Changes a client's registration; undefined when there is no such client. */
export async function updateClientRow(
  db: Db,
  clientId: string,
  changes: Partial<ClientFields>,
): Promise<ClientRow | undefined> {
  const [updated] = await db
    .update(oidcClients)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(oidcClients.clientId, clientId))
    .returning();
  return updated;
}

/** Deletes a client's registration; answers the row it deleted, undefined when there was none. */
export async function deleteClient(db: Db, clientId: string): Promise<ClientRow | undefined> {
  const [deleted] = await db.delete(oidcClients).where(eq(oidcClients.clientId, clientId)).returning();
  return deleted;
}

/**
 * Deletes what the provider stored for a client: every payload issued to it (grants, codes, access,
 * refresh and client-credentials tokens, device and back-channel requests: `clientId`) and its
 * interactions in progress (`params.client_id`). Answers how many. A pushed authorization request
 * names its client only inside its request object and is left to expire (60 seconds); it is checked
 * against the client again when used.
 */
export function deleteClientPayloads(db: Db, clientId: string): Promise<number> {
  return deleteIssuedAndInProgress(db, clientId);
}

/**
 * Deletes the payloads issued to `clientId` (of `types` when given, else all) and its interactions in
 * progress; answers how many.
 */
async function deleteIssuedAndInProgress(
  db: Db,
  clientId: string,
  types?: readonly string[],
): Promise<number> {
  const issued = sql`${oidcPayloads.payload}->>'clientId' = ${clientId}`;
  const deleted = await db
    .delete(oidcPayloads)
    .where(
      or(
        types ? and(inArray(oidcPayloads.type, [...types]), issued) : issued,
        and(
          eq(oidcPayloads.type, 'Interaction'),
          sql`${oidcPayloads.payload}->'params'->>'client_id' = ${clientId}`,
        ),
      ),
    )
    .returning({ id: oidcPayloads.id });
  return deleted.length;
}

/**
 * Sessions forget a client: its entry in their `authorizations` (its sid and grant) goes, so no
 * sign-out queues a logout token for a client registered later under the same id. Answers how many.
 */
export async function forgetClientInSessions(db: Db, clientId: string): Promise<number> {
  const changed = await db
    .update(oidcPayloads)
    .set({ payload: sql`${oidcPayloads.payload} #- array['authorizations', ${clientId}::text]` })
    .where(
      and(eq(oidcPayloads.type, 'Session'), sql`(${oidcPayloads.payload}->'authorizations') ? ${clientId}`),
    )
    .returning({ id: oidcPayloads.id });
  return changed.length;
}

/** The registered resource servers that name a client, as one allowed to ask or as their introspector. */
export async function resourceServersNaming(db: Db, clientId: string): Promise<string[]> {
  const rows = await db
    .select({ identifier: oidcResourceServers.identifier })
    .from(oidcResourceServers)
    .where(
      or(
        sql`${oidcResourceServers.clientIds} @> ${JSON.stringify([clientId])}::jsonb`,
        eq(oidcResourceServers.introspectionClientId, clientId),
      ),
    )
    .orderBy(asc(oidcResourceServers.identifier));
  return rows.map((row) => row.identifier);
}

/**
 * Sign-outs a client asked for no longer send the browser back to it, those still waiting for the
 * person and those done whose page may be loaded again: their post-logout redirect (and its state) is
 * dropped. Answers how many.
 */
export async function withholdLogoutRedirects(db: Db, clientId: string): Promise<number> {
  const changed = await db
    .update(logoutRequests)
    .set({ postLogoutRedirectUri: null, state: null })
    .where(and(eq(logoutRequests.clientId, clientId), isNotNull(logoutRequests.postLogoutRedirectUri)))
    .returning({ idHash: logoutRequests.idHash });
  return changed.length;
}

/** Deletes the client-credentials tokens issued to a client. */
export async function revokeClientCredentials(db: Db, clientId: string): Promise<void> {
  await db
    .delete(oidcPayloads)
    .where(
      and(
        eq(oidcPayloads.type, 'ClientCredentials'),
        sql`${oidcPayloads.payload}->>'clientId' = ${clientId}`,
      ),
    );
}

/**
 * Deletes what a client could redeem without its credential once it authenticates no more: its
 * authorization codes and refresh tokens, and its sign-ins in progress (`params.client_id`), whose
 * resume would issue a code without a PKCE challenge when the client did not send one. Answers how
 * many went.
 */
export function revokeRedeemableByClient(db: Db, clientId: string): Promise<number> {
  return deleteIssuedAndInProgress(db, clientId, ['AuthorizationCode', 'RefreshToken']);
}

// Resource servers

export type ResourceServerRow = typeof oidcResourceServers.$inferSelect;

/** A resource server's registration without its identifier. */
type ResourceServerFields = Omit<typeof oidcResourceServers.$inferInsert, 'identifier'>;

export async function findResourceServer(db: Db, identifier: string): Promise<ResourceServerRow | undefined> {
  const [row] = await db
    .select()
    .from(oidcResourceServers)
    .where(eq(oidcResourceServers.identifier, identifier))
    .limit(1);
  return row;
}

/** Every registered resource server, by identifier. */
export function listResourceServerRows(db: Db): Promise<ResourceServerRow[]> {
  return db.select().from(oidcResourceServers).orderBy(asc(oidcResourceServers.identifier));
}

/** Registers a resource server; undefined when its identifier is taken. */
export async function insertResourceServer(
  db: Db,
  row: typeof oidcResourceServers.$inferInsert,
): Promise<ResourceServerRow | undefined> {
  const [inserted] = await db
    .insert(oidcResourceServers)
    .values(row)
    .onConflictDoNothing({ target: oidcResourceServers.identifier })
    .returning();
  return inserted;
}

/** Changes a resource server; undefined when there is no such resource server. */
export async function updateResourceServerRow(
  db: Db,
  identifier: string,
  changes: Partial<ResourceServerFields>,
): Promise<ResourceServerRow | undefined> {
  const [updated] = await db
    .update(oidcResourceServers)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(oidcResourceServers.identifier, identifier))
    .returning();
  return updated;
}

/** Removes a resource server; answers it as it was, or undefined when there was none. */
export async function deleteResourceServer(
  db: Db,
  identifier: string,
): Promise<ResourceServerRow | undefined> {
  const [deleted] = await db
    .delete(oidcResourceServers)
    .where(eq(oidcResourceServers.identifier, identifier))
    .returning();
  return deleted;
}

// Payloads of the storage adapter, stamped and read against `clock` (storage-adapter.ts). Every
// protocol request makes several of these statements, so they are prepared (store/prepared.ts) and
// read the time as PREPARED_NOW_MS, bound to `clock.preparedReading()`.

const preparedNow = sql`to_timestamp(${PREPARED_NOW_MS} / 1000.0)`;

/** The value the insert proposed for `column`, in an upsert's update. */
const proposed = (column: AnyColumn) => sql.raw(`excluded."${column.name}"`);

const payloadKey = and(
  eq(oidcPayloads.type, sql.placeholder('model')),
  eq(oidcPayloads.id, sql.placeholder('id')),
);

/** A payload's row, every value a placeholder named as upsertPlaceholders names it. */
const PAYLOAD_VALUES = {
  id: sql.placeholder('id'),
  type: sql.placeholder('model'),
  grantId: sql.placeholder('grantId'),
  userCode: sql.placeholder('userCode'),
  uid: sql.placeholder('uid'),
  payload: sql.placeholder('payload'),
  // No lifetime (null): no expiry.
  expiresAt: sql`${preparedNow} + make_interval(secs => ${sql.placeholder('expiresIn')})`,
  consumedAt: null,
};

/** A second save of the same key writes the row as the insert would have. */
const PAYLOAD_CONFLICT = {
  target: [oidcPayloads.type, oidcPayloads.id],
  set: {
    grantId: proposed(oidcPayloads.grantId),
    userCode: proposed(oidcPayloads.userCode),
    uid: proposed(oidcPayloads.uid),
    payload: proposed(oidcPayloads.payload),
    expiresAt: proposed(oidcPayloads.expiresAt),
    consumedAt: null,
  },
};

const upsertStatement = preparedPerDb('oidc_payload_upsert', (db) =>
  db.insert(oidcPayloads).values(PAYLOAD_VALUES).onConflictDoUpdate(PAYLOAD_CONFLICT),
);

function upsertPlaceholders(
  clock: Clock,
  key: { model: string; id: string },
  payload: AdapterPayload,
  expiresIn: number,
) {
  return {
    id: key.id,
    model: key.model,
    grantId: payload.grantId ?? null,
    userCode: payload.userCode ?? null,
    uid: payload.uid ?? null,
    payload,
    expiresIn: expiresIn || null,
    nowMs: clock.preparedReading(),
  };
}

export async function upsertPayload(
  db: Db,
  clock: Clock,
  key: { model: string; id: string },
  payload: AdapterPayload,
  expiresIn: number,
): Promise<void> {
  await upsertStatement(db).execute(upsertPlaceholders(clock, key, payload, expiresIn));
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const updateStatement = preparedPerDb('oidc_payload_update', (db) =>
  db
    .update(oidcPayloads)
    .set({
      grantId: sql`${sql.placeholder('grantId')}`,
      userCode: sql`${sql.placeholder('userCode')}`,
      uid: sql`${sql.placeholder('uid')}`,
      // As text, cast here: a raw placeholder has no column to encode the object as the insert's has.
      payload: sql`${sql.placeholder('payloadText')}::jsonb`,
      expiresAt: PAYLOAD_VALUES.expiresAt,
      consumedAt: null,
    })
    .where(payloadKey)
    .returning({ id: oidcPayloads.id }),
);

/**
 * Writes a payload that is stored already, as upsertPayload would; a row removed meanwhile stays
 * removed. Answers whether it wrote.
 */
export async function updatePayload(
  db: Db,
  clock: Clock,
  key: { model: string; id: string },
  payload: AdapterPayload,
  expiresIn: number,
): Promise<boolean> {
  const updated = await updateStatement(db).execute({
    ...upsertPlaceholders(clock, key, payload, expiresIn),
    payloadText: JSON.stringify(payload),
  });
  return updated.length > 0;
}

/**
 * upsertPayload with a sign-in put on record in the same statement (an interaction's result, DESIGN
 * §2 Login): its count cleared as failuresCleared allows and its audit row written, all or nothing.
 * So no sign-in goes on without its audit row, and a success costs the statements of a failure
 * (BENCHMARKS.md, Statements per flow).
 */
export async function upsertPayloadRecording(
  db: Db,
  clock: Clock,
  key: { model: string; id: string },
  payload: AdapterPayload,
  expiresIn: number,
  record: SignInRecord,
): Promise<void> {
  await upsertRecordingStatement(db).execute({
    ...upsertPlaceholders(clock, key, payload, expiresIn),
    ...signInRecordPlaceholders(record),
  });
}

// Stryker disable next-line StringLiteral: the name only lets PostgreSQL parse the statement once per connection; unnamed, it runs alike
const upsertRecordingStatement = preparedPerDb('oidc_payload_upsert_sign_in', (db) => {
  // Data-modifying WITHs run once and to their end whether or not the statement reads them.
  const cleared = failuresCleared(db);
  const audited = db
    .$with('audited')
    .as(db.insert(auditEvents).values(AUDIT_VALUES).returning({ id: auditEvents.id }));
  return db
    .with(cleared, audited)
    .insert(oidcPayloads)
    .values(PAYLOAD_VALUES)
    .onConflictDoUpdate(PAYLOAD_CONFLICT);
});

const live = sql`(${oidcPayloads.expiresAt} is null or ${oidcPayloads.expiresAt} > ${preparedNow})`;

function findLiveStatement(by: 'id' | 'uid' | 'userCode') {
  return preparedPerDb(`oidc_payload_live_by_${by}`, (db) =>
    db
      .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
      .from(oidcPayloads)
      .where(
        and(
          eq(oidcPayloads.type, sql.placeholder('model')),
          eq(oidcPayloads[by], sql.placeholder('value')),
          live,
        ),
      )
      .limit(1),
  );
}

const findLiveBy = {
  id: findLiveStatement('id'),
  uid: findLiveStatement('uid'),
  userCode: findLiveStatement('userCode'),
};

/** A live (unexpired) payload of `model` whose `by` column is `value`. */
export async function findLivePayload(
  db: Db,
  clock: Clock,
  model: string,
  by: 'id' | 'uid' | 'userCode',
  value: string,
): Promise<{ payload: Record<string, unknown>; consumedAt: Date | null } | undefined> {
  const [row] = await findLiveBy[by](db).execute({ model, value, nowMs: clock.preparedReading() });
  return row;
}

const consumeStatement = preparedPerDb('oidc_payload_consume', (db) =>
  db
    .update(oidcPayloads)
    .set({ consumedAt: preparedNow })
    .where(and(payloadKey, isNull(oidcPayloads.consumedAt)))
    .returning({ grantId: oidcPayloads.grantId }),
);

const grantOfStatement = preparedPerDb('oidc_payload_grant', (db) =>
  db.select({ grantId: oidcPayloads.grantId }).from(oidcPayloads).where(payloadKey).limit(1),
);

/**
 * Marks a payload consumed, once: of concurrent callers only one gets `consumed: true`, because the
 * condition and the update are one statement. Answers the payload's grant either way (null when the
 * payload is gone or has none).
 */
export async function consumePayload(
  db: Db,
  clock: Clock,
  model: string,
  id: string,
): Promise<{ consumed: boolean; grantId: string | null }> {
  const [consumed] = await consumeStatement(db).execute({ model, id, nowMs: clock.preparedReading() });
  if (consumed) return { consumed: true, grantId: consumed.grantId };
  const [row] = await grantOfStatement(db).execute({ model, id });
  return { consumed: false, grantId: row?.grantId ?? null };
}

const destroyStatement = preparedPerDb('oidc_payload_destroy', (db) =>
  db.delete(oidcPayloads).where(payloadKey).returning({ id: oidcPayloads.id }),
);

/** Deletes a payload; answers whether it was there to delete. */
export async function destroyPayload(db: Db, model: string, id: string): Promise<boolean> {
  const deleted = await destroyStatement(db).execute({ model, id });
  return deleted.length > 0;
}

/**
 * The models issued under a grant, which revoking the grant takes away. An Interaction carries the
 * grantId of the session's existing grant too, but is no token of it: deleting it with the tokens broke
 * an account switch (the provider revokes the old grant, then resumes that very interaction).
 */
export const GRANT_TOKEN_MODELS: readonly string[] = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
];

/** Takes away a grant and what was issued under it, leaving an interaction that names it. */
export async function endGrant(db: Db, grantId: string): Promise<void> {
  await deleteGrantPayloads(db, grantId, GRANT_TOKEN_MODELS);
  await destroyPayload(db, 'Grant', grantId);
}

/** Deletes the payloads of `models` issued under a grant. */
export async function deleteGrantPayloads(db: Db, grantId: string, models: readonly string[]): Promise<void> {
  await db
    .delete(oidcPayloads)
    .where(and(eq(oidcPayloads.grantId, grantId), inArray(oidcPayloads.type, [...models])));
}

// Sessions and grants

/** The stored payload of a session, if it exists (expired or not). */
export async function findSessionPayload(
  db: Db,
  sessionId: string,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await db
    .select({ payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Session'), eq(oidcPayloads.id, sessionId)));
  return row?.payload;
}

/** The stored payloads of every session of an account (expired or not). */
export async function findAccountSessionPayloads(
  db: Db,
  accountId: string,
): Promise<Record<string, unknown>[]> {
  const rows = await db
    .select({ payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Session'), sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`));
  return rows.map((row) => row.payload);
}

/** Deletes a grant and everything issued under it. */
export async function deleteGrant(db: Db, grantId: string): Promise<void> {
  await db.delete(oidcPayloads).where(eq(oidcPayloads.grantId, grantId));
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.type, 'Grant'), eq(oidcPayloads.id, grantId)));
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.type, 'Session'), eq(oidcPayloads.id, sessionId)));
}

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

// Sign-outs (RP-initiated logout, logout.ts)

export type LogoutRequestRow = typeof logoutRequests.$inferSelect;
export type NewLogoutRequest = typeof logoutRequests.$inferInsert;

/**
 * Stores a logout request that lives `lifetimeMs` by the database's clock, the one findLiveLogoutRequest
 * judges it by: an instance whose own clock is off does not shorten or stretch it.
 */
export async function insertLogoutRequest(
  db: Db,
  row: Omit<NewLogoutRequest, 'expiresAt'>,
  lifetimeMs: number,
): Promise<void> {
  await db
    .insert(logoutRequests)
    .values({ ...row, expiresAt: sql`now() + ${lifetimeMs} * interval '1 millisecond'` });
}

/** The stored request of that id hash, unless it has expired. */
export async function findLiveLogoutRequest(db: Db, idHash: string): Promise<LogoutRequestRow | undefined> {
  const [request] = await db
    .select()
    .from(logoutRequests)
    .where(and(eq(logoutRequests.idHash, idHash), gt(logoutRequests.expiresAt, sql`now()`)));
  return request;
}

/**
 * Marks the request used; answers the row as marked for exactly one caller, the first (a caller that
 * waited for another transaction on the row reads what that one committed), undefined for the others.
 */
export async function consumeLogoutRequest(db: Db, idHash: string): Promise<LogoutRequestRow | undefined> {
  const [firstTime] = await db
    .update(logoutRequests)
    .set({ consumedAt: sql`now()` })
    .where(and(eq(logoutRequests.idHash, idHash), isNull(logoutRequests.consumedAt)))
    .returning();
  return firstTime;
}

// Expired state, against the database clock as the reads are

/** Deletes the provider's payloads whose time is up; answers how many went. */
export async function deleteExpiredPayloads(db: Db, signal?: AbortSignal): Promise<number> {
  return deleteInBatches(db, oidcPayloads, lte(oidcPayloads.expiresAt, sql`now()`), { signal });
}

/** Deletes the sign-outs nobody finished in time; answers how many went. */
export async function deleteExpiredLogoutRequests(db: Db, signal?: AbortSignal): Promise<number> {
  return deleteInBatches(db, logoutRequests, lte(logoutRequests.expiresAt, sql`now()`), { signal });
}

// Signing keys (what their rows mean is key-schedule.ts's)

export type SigningKeyRow = typeof oidcSigningKeys.$inferSelect;

/** Every stored key, the earliest to sign first. */
export function listSigningKeys(db: Db): Promise<SigningKeyRow[]> {
  return db
    .select()
    .from(oidcSigningKeys)
    .orderBy(asc(oidcSigningKeys.activatesAt), asc(oidcSigningKeys.kid));
}

export type RevokedSigningKeyRow = typeof oidcRevokedSigningKeys.$inferSelect;

/** The keys keys:revoke withdrew, stored and configured ones alike, and when. */
export function listRevokedSigningKeys(db: Db): Promise<RevokedSigningKeyRow[]> {
  return db.select().from(oidcRevokedSigningKeys);
}

/**
 * The stored keys and the revocations, as an instance builds its key schedule from them. Two
 * statements, the revocations first: a revocation commits with the keys that replace it, so whatever
 * revocation the first read sees, the second sees its replacements too, and no schedule is left
 * without a signing key. (The other way round, a revocation committed between the reads would
 * withdraw the key that signs while its replacement is not read yet.)
 */
export async function readSigningKeys(
  db: Db,
): Promise<{ rows: SigningKeyRow[]; revoked: RevokedSigningKeyRow[] }> {
  const revoked = await listRevokedSigningKeys(db);
  return { rows: await listSigningKeys(db), revoked };
}

/**
 * Holds off every other rotation and revocation until the transaction `db` ends, so two started
 * together cannot both find nothing pending and both add keys.
 */
export async function lockSigningKeys(db: Db): Promise<void> {
  await db.execute(sql`lock table ${oidcSigningKeys} in exclusive mode`);
}

export async function insertSigningKeys(db: Db, rows: readonly SigningKeyRow[]): Promise<void> {
  if (rows.length > 0) await db.insert(oidcSigningKeys).values([...rows]);
}

export async function deleteSigningKeys(db: Db, kids: readonly string[]): Promise<void> {
  if (kids.length > 0) await db.delete(oidcSigningKeys).where(inArray(oidcSigningKeys.kid, [...kids]));
}

/** Withdraws the keys of `kids` for good; one withdrawn before stays as it was. */
export async function insertRevokedSigningKeys(
  db: Db,
  kids: readonly string[],
  revokedAt: Date,
): Promise<void> {
  if (kids.length === 0) return;
  await db
    .insert(oidcRevokedSigningKeys)
    .values(kids.map((kid) => ({ kid, revokedAt })))
    .onConflictDoNothing();
}
