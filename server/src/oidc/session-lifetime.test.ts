import { afterEach, describe, expect, it, vi } from 'vitest';
import { pastAbsoluteEnd, sessionTtl } from './session-lifetime.ts';

const HOUR = 60 * 60;
const DAY = 24 * HOUR;
/** 24 hours unused, 30 days at most: the defaults, written out. */
const LIFETIMES = { idleSeconds: 24 * HOUR, absoluteSeconds: 30 * DAY };
const SIGNED_IN = 1_780_000_000;

afterEach(() => {
  vi.useRealTimers();
});

/** The session's ttl when saved `since` seconds after its sign-in. */
function ttlAfter(since: number, session: { loginTs?: number } = { loginTs: SIGNED_IN }): number {
  vi.useFakeTimers({ toFake: ['Date'], now: (SIGNED_IN + since) * 1000 });
  return sessionTtl(LIFETIMES)(undefined, session);
}

describe('a sign-in session saved', () => {
  it('lasts 24 hours from each use while 30 days from its sign-in are further off', () => {
    expect(ttlAfter(0)).toBe(24 * HOUR);
    expect(ttlAfter(29 * DAY - 1)).toBe(24 * HOUR);
  });

  it('ends 30 days after its sign-in however recently it was used', () => {
    expect(ttlAfter(29 * DAY + 12 * HOUR)).toBe(12 * HOUR);
    expect(ttlAfter(30 * DAY - 2)).toBe(2);
    // Never less than the second the provider insists on; a session that old is not found anyway.
    expect(ttlAfter(30 * DAY)).toBe(1);
  });

  it('with nobody signed in yet only idles', () => {
    expect(ttlAfter(40 * DAY, {})).toBe(24 * HOUR);
  });
});

describe('a stored session', () => {
  function pastAfter(since: number, payload: { loginTs?: unknown } = { loginTs: SIGNED_IN }) {
    vi.useFakeTimers({ toFake: ['Date'], now: SIGNED_IN * 1000 + since });
    return pastAbsoluteEnd(LIFETIMES, payload);
  }

  it('is past its end from 30 days after its sign-in, to the millisecond', () => {
    expect(pastAfter(30 * DAY * 1000 - 1)).toBe(false);
    expect(pastAfter(30 * DAY * 1000)).toBe(true);
  });

  it('without a sign-in has no end of its own', () => {
    expect(pastAfter(400 * DAY * 1000, {})).toBe(false);
  });
});
