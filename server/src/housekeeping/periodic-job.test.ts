import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { retentionCutoff, startPeriodicJob } from './periodic-job.ts';

/**
 * The schedule of a housekeeping job, on vitest's fake timers: when passes start and when they no
 * longer do. What a pass deletes, and that a stopped pass deletes nothing, is in
 * test/housekeeping-stop.test.ts.
 */

const HOUR_MS = 60 * 60_000;

/** A job whose passes are counted and answer `deleted`, with the lines it logs. */
function countedJob(deleted: () => Promise<number> = async () => 0) {
  const lines: string[] = [];
  const signals: AbortSignal[] = [];
  const job = startPeriodicJob({
    run: (signal) => {
      signals.push(signal);
      return deleted();
    },
    intervalMs: HOUR_MS,
    log: { info: (line) => lines.push(`info ${line}`), error: (line) => lines.push(`error ${line}`) },
    deleted: (count) => `${count} deleted`,
    failed: 'pass failed',
  });
  return { job, lines, passes: () => signals.length, signals };
}

beforeEach(() => {
  // The intervals only: a faked Date would also move the clock of an embedded database this test
  // worker still holds for its next file (server tests share their worker, vitest.config.ts).
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a periodic job', () => {
  it('runs a pass at start and then one an interval (an hour here), not before', async () => {
    const { job, passes } = countedJob();
    expect(passes()).toBe(1);
    await vi.advanceTimersByTimeAsync(HOUR_MS - 1);
    expect(passes()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(passes()).toBe(2);
    await vi.advanceTimersByTimeAsync(2 * HOUR_MS);
    expect(passes()).toBe(4);
    job.stop();
  });

  it('starts no pass once stopped, however long the process lives on, and leaves no timer behind', async () => {
    const { job, passes, signals } = countedJob();
    await vi.advanceTimersByTimeAsync(HOUR_MS);
    expect(passes()).toBe(2);
    expect(vi.getTimerCount()).toBe(1);
    job.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(24 * HOUR_MS);
    expect(passes()).toBe(2);
    // The passes already started are told to stop.
    expect(signals.every((signal) => signal.aborted)).toBe(true);
    await job.idle();
  });

  it('keeps no process alive by its timer', () => {
    // On the real timers: a spy of the fake setInterval, once restored, outlived vi.useRealTimers()
    // and left the faked one in place for the next file of this worker (housekeeping-stop.test.ts).
    vi.useRealTimers();
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    const { job } = countedJob();
    const [timer] = setInterval.mock.results.map((result) => result.value as NodeJS.Timeout);
    expect(timer?.hasRef()).toBe(false);
    job.stop();
    setInterval.mockRestore();
  });

  it('logs a pass that deleted rows with its count, a failed one with its reason, an empty one not at all', async () => {
    const answers: (() => Promise<number>)[] = [
      async () => 0,
      async () => 3,
      async () => {
        throw new Error('the database went away');
      },
      async () => 0,
    ];
    const { job, lines } = countedJob(() => (answers.shift() ?? (async () => 0))());
    await vi.advanceTimersByTimeAsync(3 * HOUR_MS);
    await job.idle();
    expect(lines).toEqual(['info 3 deleted', 'error pass failed: the database went away']);
    job.stop();
  });

  it('runs a pass on request too, without moving the schedule', async () => {
    const { job, passes } = countedJob(async () => 2);
    await vi.advanceTimersByTimeAsync(HOUR_MS / 2);
    expect(await job.runOnce()).toBe(2);
    expect(passes()).toBe(2);
    await vi.advanceTimersByTimeAsync(HOUR_MS / 2);
    expect(passes()).toBe(3);
    job.stop();
  });
});

describe('the retention cut-off', () => {
  it('is 28 days before now (the data policy keeps logs 4 weeks)', () => {
    const now = new Date('2026-03-29T12:00:00.000Z');
    expect(retentionCutoff(now).toISOString()).toBe('2026-03-01T12:00:00.000Z');
  });
});
