import { LOG_RETENTION_DAYS } from '@keycard/contract';
import { describe, expect, it, vi } from 'vitest';
import { startMailRetention } from '../src/mail/mail-retention.ts';
import { manualClock } from '../src/store/clock.ts';
import { outbox } from '../src/store/tables/mail.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();
const DAY_MS = 24 * 60 * 60 * 1000;
const NOW = new Date('2026-03-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);

async function message(subject: string, state: { sentAt?: Date; failedAt?: Date; createdAt?: Date }) {
  await testDb()
    .db.insert(outbox)
    .values({
      kind: 'password_reset',
      recipient: 'dana@example.com',
      subject,
      textBody: 'text',
      htmlBody: '<p>html</p>',
      createdAt: state.createdAt ?? state.sentAt ?? state.failedAt ?? NOW,
      sentAt: state.sentAt ?? null,
      failedAt: state.failedAt ?? null,
    });
}

async function subjects(): Promise<string[]> {
  const rows = await testDb().db.select({ subject: outbox.subject }).from(outbox);
  return rows.map((row) => row.subject).sort();
}

describe('mail outbox retention (the data policy’s 4 weeks)', () => {
  it('deletes sent and failed messages finished before the retention, never an unsent one', async () => {
    const retention = LOG_RETENTION_DAYS * DAY_MS;
    await testDb().db.delete(outbox);
    await message('sent-old', { sentAt: ago(retention + 60_000) });
    await message('failed-old', { failedAt: ago(retention + 60_000) });
    await message('sent-recent', { sentAt: ago(retention - 60_000) });
    await message('failed-recent', { failedAt: ago(DAY_MS) });
    await message('unsent-old', { createdAt: ago(retention * 2) });

    const clock = manualClock(NOW);
    const log = { info: vi.fn(), error: vi.fn() };
    const job = startMailRetention({ db: testDb().db, clock, log, intervalMs: 3_600_000 });
    try {
      await vi.waitFor(async () =>
        expect(await subjects()).toEqual(['failed-recent', 'sent-recent', 'unsent-old']),
      );
      expect(log.info).toHaveBeenCalledWith(
        `mail outbox: deleted 2 messages finished over ${LOG_RETENTION_DAYS} days ago`,
      );
      // Two minutes on, the recent sent message has aged out as well.
      clock.advance(120_000);
      expect(await job.runOnce()).toBe(1);
      expect(await subjects()).toEqual(['failed-recent', 'unsent-old']);
      expect(log.error).not.toHaveBeenCalled();
    } finally {
      job.stop();
    }
  });
});
