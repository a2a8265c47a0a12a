import { describe, expect, it } from 'vitest';
import { createLogoutWorker } from '../src/backchannel/backchannel-worker.ts';
import { manualClock } from '../src/store/clock.ts';
import { recordingLog } from './mail-kit.ts';
import { useTestDatabase } from './support/database.ts';

const testDb = useTestDatabase();

describe('the back-channel logout worker in a database outage', () => {
  it('says so once per outage, not at every poll, and once more when the queue is back', async () => {
    const log = recordingLog();
    const clock = manualClock();
    let down = false;
    const worker = createLogoutWorker({
      db: testDb().db,
      provider: () => Promise.reject(new Error('no token is due, so no provider is asked for')),
      // The worker's first step each pass: on PostgreSQL the clock is the database's.
      clock: {
        ...clock,
        now: () => (down ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) : clock.now()),
      },
      log,
      networks: [],
    });
    down = true;
    for (let poll = 0; poll < 3; poll++) expect(await worker.runOnce()).toBe(0);
    expect(log.lines).toEqual([
      expect.stringMatching(/^Back-channel logout worker cannot use its queue .*ECONNREFUSED/),
    ]);

    down = false;
    expect(await worker.runOnce()).toBe(0);
    expect(await worker.runOnce()).toBe(0);
    expect(log.lines.slice(1)).toEqual(['Back-channel logout worker reaches its queue again']);

    down = true;
    expect(await worker.runOnce()).toBe(0);
    expect(log.lines).toHaveLength(3);
    await worker.stop();
  });
});
