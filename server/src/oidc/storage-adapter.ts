import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../store/clock.ts';
import { type Db, oidcPayloads } from '../store/tables/index.ts';
import { findClientMetadata } from './clients.ts';

/**
 * The models issued under a grant, which revoking the grant takes away. An Interaction carries the
 * grantId of the session's existing grant too, but is no token of it: deleting it with the tokens broke
 * an account switch (the provider revokes the old grant, then resumes that very interaction).
 */
const GRANT_TOKEN_MODELS = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'DeviceCode',
  'BackchannelAuthenticationRequest',
  'PreAuthorizedCode',
];

/**
 * oidc-provider's storage in the database (PGlite or PostgreSQL), so any instance can continue a flow
 * another one started. Expiry is stamped and checked against `clock` (the database's in the service,
 * DESIGN §2) on every write and read, exactly: the provider's own check of a payload's `exp` allows
 * 15 seconds of clock skew.
 */
export function databaseAdapter(db: Db, clock: Clock): new (model: string) => Adapter {
  const now = () => sql`to_timestamp(${clock.nowSql()} / 1000.0)`;
  const live = () => sql`(${oidcPayloads.expiresAt} is null or ${oidcPayloads.expiresAt} > ${now()})`;

  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const expiresAt = expiresIn ? sql`${now()} + make_interval(secs => ${expiresIn})` : null;
      const row = {
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        payload: payload as Record<string, unknown>,
        expiresAt,
        consumedAt: null,
      };
      await db
        .insert(oidcPayloads)
        .values({ id, type: this.model, ...row })
        .onConflictDoUpdate({ target: [oidcPayloads.type, oidcPayloads.id], set: row });
    }

    private async findWhere(condition: ReturnType<typeof eq>): Promise<AdapterPayload | undefined> {
      const [row] = await db
        .select({ payload: oidcPayloads.payload, consumedAt: oidcPayloads.consumedAt })
        .from(oidcPayloads)
        .where(and(eq(oidcPayloads.type, this.model), condition, live()))
        .limit(1);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      // Clients are registered by the admin CLI/API in their own table, not by dynamic registration.
      if (this.model === 'Client') return findClientMetadata(db, id);
      return this.findWhere(eq(oidcPayloads.id, id));
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oidcPayloads.uid, uid));
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findWhere(eq(oidcPayloads.userCode, userCode));
    }

    async consume(id: string): Promise<void> {
      await db
        .update(oidcPayloads)
        .set({ consumedAt: now() })
        .where(
          and(eq(oidcPayloads.type, this.model), eq(oidcPayloads.id, id), isNull(oidcPayloads.consumedAt)),
        );
    }

    async destroy(id: string): Promise<void> {
      await db.delete(oidcPayloads).where(and(eq(oidcPayloads.type, this.model), eq(oidcPayloads.id, id)));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db
        .delete(oidcPayloads)
        .where(and(eq(oidcPayloads.grantId, grantId), inArray(oidcPayloads.type, GRANT_TOKEN_MODELS)));
    }
  };
}
