import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { pruneExpiredState, startExpiredStatePruning } from '../src/oidc/expired-state.ts';
import { backchannelLogouts, logoutRequests, oidcPayloads } from '../src/store/tables/index.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();

/** An OIDC record that expires `seconds` from the database's now (negative: already expired). */
async function payload(id: string, seconds: number | null): Promise<void> {
  await testDb()
    .db.insert(oidcPayloads)
    .values({
      id,
      type: 'Interaction',
      payload: { uid: id },
      expiresAt: seconds === null ? null : sql`now() + make_interval(secs => ${seconds})`,
    });
}

async function logoutRequest(idHash: string, seconds: number): Promise<void> {
  await testDb()
    .db.insert(logoutRequests)
    .values({ idHash, sessionId: 'session', expiresAt: sql`now() + make_interval(secs => ${seconds})` });
}

async function remaining() {
  const db = testDb().db;
  const payloads = await db.select({ id: oidcPayloads.id }).from(oidcPayloads);
  const logouts = await db.select({ idHash: logoutRequests.idHash }).from(logoutRequests);
  return {
    payloads: payloads.map((row) => row.id).sort(),
    logouts: logouts.map((row) => row.idHash).sort(),
  };
}

describe('expired sign-in state is deleted', () => {
  it('deletes provider records and sign-outs whose time is up, and keeps the live ones', async () => {
    await testDb().db.delete(oidcPayloads);
    await testDb().db.delete(logoutRequests);
    await payload('expired', -1);
    await payload('live', 3600);
    await payload('without-expiry', null);
    await logoutRequest('expired-logout', -1);
    await logoutRequest('live-logout', 600);

    expect(await pruneExpiredState(testDb().db)).toBe(2);
    expect(await remaining()).toEqual({
      payloads: ['live', 'without-expiry'],
      logouts: ['live-logout'],
    });
    expect(await pruneExpiredState(testDb().db)).toBe(0);
  });

  it('deletes logout tokens delivered or given up over 28 days ago, and keeps younger and pending ones', async () => {
    await testDb().db.delete(oidcPayloads);
    await testDb().db.delete(logoutRequests);
    await testDb().db.delete(backchannelLogouts);
    // `ago`: an interval before the database's now, as the deletion measures it.
    const token = (sid: string, finished: { delivered?: string; failed?: string }) => {
      const at = (ago: string | undefined) => (ago === undefined ? null : sql`now() - ${ago}::interval`);
      return testDb()
        .db.insert(backchannelLogouts)
        .values({
          clientId: 'client',
          accountId: 'account',
          sid,
          createdAt: sql`now() - interval '60 days'`,
          nextAttemptAt: sql`now() - interval '60 days'`,
          deliveredAt: at(finished.delivered),
          failedAt: at(finished.failed),
        });
    };
    await token('delivered-28-days-1-minute-ago', { delivered: '28 days 1 minute' });
    await token('failed-28-days-1-minute-ago', { failed: '28 days 1 minute' });
    await token('delivered-27-days-23-hours-ago', { delivered: '27 days 23 hours' });
    await token('failed-27-days-23-hours-ago', { failed: '27 days 23 hours' });
    await token('pending-60-days', {});
    expect(await pruneExpiredState(testDb().db)).toBe(2);
    const left = await testDb().db.select({ sid: backchannelLogouts.sid }).from(backchannelLogouts);
    expect(left.map((row) => row.sid).sort()).toEqual([
      'delivered-27-days-23-hours-ago',
      'failed-27-days-23-hours-ago',
      'pending-60-days',
    ]);
  });

  it('runs at start and logs what it deleted', async () => {
    await testDb().db.delete(oidcPayloads);
    await payload('expired-at-start', -5);
    const log = { info: vi.fn(), error: vi.fn() };
    const job = startExpiredStatePruning({ db: testDb().db, log, intervalMs: 3_600_000 });
    try {
      await vi.waitFor(() => expect(log.info).toHaveBeenCalledWith('expired sign-in state: 1 deleted'));
      expect((await remaining()).payloads).toEqual([]);
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      job.stop();
    }
  });
});
