import { LOG_RETENTION_DAYS } from '@keycard/contract';
import { describe, expect, it, vi } from 'vitest';
import { startAuditRetention } from '../src/audit/retention.ts';
import { manualClock } from '../src/store/clock.ts';
import { auditEvents } from '../src/store/tables/index.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
const DAY_MS = 24 * 60 * 60 * 1000;

async function eventsAt(...ages: number[]): Promise<void> {
  const now = Date.parse('2026-03-01T12:00:00Z');
  await testDb()
    .db.insert(auditEvents)
    .values(ages.map((age) => ({ event: `aged-${age}`, outcome: 'success', at: new Date(now - age) })));
}

async function remaining(): Promise<string[]> {
  const rows = await testDb().db.select({ event: auditEvents.event }).from(auditEvents);
  return rows.map((row) => row.event).sort();
}

describe('audit log retention (DESIGN §2: 28 days)', () => {
  it('deletes events older than the retention at start and on every pass, keeping younger ones', async () => {
    const keep = LOG_RETENTION_DAYS * DAY_MS - 60_000;
    const drop = LOG_RETENTION_DAYS * DAY_MS + 60_000;
    await testDb().db.delete(auditEvents);
    await eventsAt(DAY_MS, keep, drop);
    const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
    const log = { info: vi.fn(), error: vi.fn() };
    const retention = startAuditRetention({ db: testDb().db, clock, log, intervalMs: 3_600_000 });
    try {
      // The pass at start.
      await vi.waitFor(async () =>
        expect(await remaining()).toEqual([`aged-${DAY_MS}`, `aged-${keep}`].sort()),
      );
      expect(log.info).toHaveBeenCalledWith(
        `audit log: deleted 1 events older than ${LOG_RETENTION_DAYS} days`,
      );
      // Two minutes later the younger of the two old events has aged out too.
      clock.advance(120_000);
      expect(await retention.runOnce()).toBe(1);
      expect(await remaining()).toEqual([`aged-${DAY_MS}`]);
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      retention.stop();
    }
  });
});
