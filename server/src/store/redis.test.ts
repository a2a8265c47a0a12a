import { afterEach, describe, expect, it } from 'vitest';
import { openSharedCounters, type SharedCounters } from './redis.ts';

const opened: SharedCounters[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((shared) => shared.close()));
});

describe('the shared counters’ log', () => {
  it('warns once a minute while Redis fails, and tells of its return once per warning', () => {
    let now = 0;
    const lines: string[] = [];
    const log = {
      warn: (_fields: object, message: string) => void lines.push(`warn: ${message}`),
      info: (message: string) => void lines.push(`info: ${message}`),
    };
    // Nothing listens on port 1: the connection's own failures are logged by the same rule.
    const shared = openSharedCounters('redis://127.0.0.1:1', log, () => now);
    opened.push(shared);
    const away = 'warn: Redis is unavailable: rate-limit counters are kept in this process until it is back';
    const back = 'info: Redis is available again: rate-limit counters are shared again';

    shared.failed(new Error('Command timed out'));
    shared.failed(new Error('Command timed out'));
    expect(lines).toEqual([away]);
    shared.answered();
    shared.answered();
    expect(lines).toEqual([away, back]);
    // Answering and failing in turn within the minute: nothing more.
    now = 59_999;
    shared.failed(new Error('Command timed out'));
    shared.answered();
    expect(lines).toEqual([away, back]);
    // A minute after the last warning, a failure is told again, and so is the return after it.
    now = 60_000;
    shared.failed(new Error('Command timed out'));
    shared.answered();
    expect(lines).toEqual([away, back, away, back]);
  });
});
