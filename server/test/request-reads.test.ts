import { describe, expect, it } from 'vitest';
import { destroyPayload } from '../src/oidc/oidc-repository.ts';
import { withRequestReads } from '../src/oidc/request-reads.ts';
import { databaseAdapter } from '../src/oidc/storage-adapter.ts';
import { manualClock } from '../src/store/clock.ts';
import { testConfig } from './support/app.ts';
import { useTestDatabase } from './support/database.ts';

/**
 * A token request reads the code's session by uid twice (the provider's session-binding check, then
 * the ID token's `sid`); the storage adapter answers the second read from the first within one
 * protocol request, and only there.
 */

const testDb = useTestDatabase();
const MINUTE = 60;

function sessions() {
  const Adapter = databaseAdapter(testDb().db, manualClock(), {
    sessionLifetimes: testConfig().sessionLifetimes,
  });
  return new Adapter('Session');
}

/** Takes the session away behind the adapter's back, as another instance would. */
const goneElsewhere = (id: string) => destroyPayload(testDb().db, 'Session', id);

describe('sessions read by uid within one protocol request', () => {
  it('are read from the database once: a second read in the request gets the first answer', async () => {
    const session = sessions();
    await session.upsert('session-1', { uid: 'uid-1', accountId: 'a1' }, MINUTE);
    await withRequestReads(async () => {
      expect(await session.findByUid('uid-1')).toMatchObject({ accountId: 'a1' });
      await goneElsewhere('session-1');
      expect(await session.findByUid('uid-1')).toMatchObject({ accountId: 'a1' });
    });
    // The next request reads it afresh.
    await withRequestReads(async () => expect(await session.findByUid('uid-1')).toBeUndefined());
  });

  it('give each reader its own copy: what one changes, the next does not see', async () => {
    const session = sessions();
    await session.upsert('session-5', { uid: 'uid-5', accountId: 'a5', authorizations: {} }, MINUTE);
    await withRequestReads(async () => {
      const first = await session.findByUid('uid-5');
      if (!first) throw new Error('the session was not found');
      first.accountId = 'changed';
      (first.authorizations as Record<string, unknown>).planner = { sid: 'changed' };
      expect(await session.findByUid('uid-5')).toEqual(
        expect.objectContaining({ accountId: 'a5', authorizations: {} }),
      );
    });
  });

  it('are read every time outside a protocol request', async () => {
    const session = sessions();
    await session.upsert('session-2', { uid: 'uid-2', accountId: 'a2' }, MINUTE);
    expect(await session.findByUid('uid-2')).toMatchObject({ accountId: 'a2' });
    await goneElsewhere('session-2');
    expect(await session.findByUid('uid-2')).toBeUndefined();
  });

  it('are read again after the request wrote or destroyed a session', async () => {
    const session = sessions();
    await session.upsert('session-3', { uid: 'uid-3', accountId: 'a3' }, MINUTE);
    await withRequestReads(async () => {
      expect(await session.findByUid('uid-3')).toMatchObject({ accountId: 'a3' });
      await session.upsert('session-3', { uid: 'uid-3', accountId: 'a3', amr: ['pwd'] }, MINUTE);
      expect(await session.findByUid('uid-3')).toMatchObject({ amr: ['pwd'] });
      await session.destroy('session-3');
      expect(await session.findByUid('uid-3')).toBeUndefined();
    });
  });

  it('are kept apart per request, even when two run at once', async () => {
    const session = sessions();
    await session.upsert('session-4', { uid: 'uid-4', accountId: 'a4' }, MINUTE);
    let first!: () => void;
    const firstRead = new Promise<void>((resolve) => {
      first = resolve;
    });
    const one = withRequestReads(async () => {
      expect(await session.findByUid('uid-4')).toMatchObject({ accountId: 'a4' });
      first();
    });
    const two = withRequestReads(async () => {
      await firstRead;
      await goneElsewhere('session-4');
      expect(await session.findByUid('uid-4')).toBeUndefined();
    });
    await Promise.all([one, two]);
  });
});
