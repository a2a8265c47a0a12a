import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import { findClientMetadata } from './clients.ts';
import {
  consumePayload,
  deleteGrantPayloads,
  destroyPayload,
  findLivePayload,
  upsertPayload,
} from './oidc-repository.ts';

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
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await upsertPayload(db, clock, { model: this.model, id }, payload, expiresIn);
    }

    private async findBy(by: 'id' | 'uid' | 'userCode', value: string): Promise<AdapterPayload | undefined> {
      const row = await findLivePayload(db, clock, this.model, by, value);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : payload;
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      // Clients are registered by the admin CLI/API in their own table, not by dynamic registration.
      if (this.model === 'Client') return findClientMetadata(db, id);
      return this.findBy('id', id);
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findBy('uid', uid);
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findBy('userCode', userCode);
    }

    consume(id: string): Promise<void> {
      return consumePayload(db, clock, this.model, id);
    }

    destroy(id: string): Promise<void> {
      return destroyPayload(db, this.model, id);
    }

    revokeByGrantId(grantId: string): Promise<void> {
      return deleteGrantPayloads(db, grantId, GRANT_TOKEN_MODELS);
    }
  };
}
