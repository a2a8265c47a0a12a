import { describe, expect, it } from 'vitest';
import {
  generationsOf,
  type KeyGeneration,
  type KeySchedule,
  keyScheduleAt,
  removedKids,
} from './key-schedule.ts';
import type { SigningJwk } from './keys.ts';

const MINUTE = 60_000;
/** OIDC_KEY_RETAIN_MINUTES at its least and default: 1440, a day. */
const RETAIN_MS = 1440 * MINUTE;
const START = Date.parse('2026-01-15T10:00:00Z');

/** Only the kid counts here: the schedule never looks inside a key. */
const key = (kid: string) => ({ kid, kty: 'RSA' }) as SigningJwk;
const at = (minutes: number) => new Date(START + minutes * MINUTE);
const generation = (minutes: number, ...kids: string[]): KeyGeneration => ({
  activatesAt: at(minutes),
  keys: kids.map(key),
});
const states = (schedule: KeySchedule) => schedule.keys.map((entry) => [entry.jwk.kid, entry.state]);

const BASE = [key('base-rsa'), key('base-ec')];

describe('the key schedule with revoked keys', () => {
  it('leaves a revoked key out whatever its state: current, next or retired', () => {
    const stored = [generation(10, 'first'), generation(100, 'next')];
    expect(states(keyScheduleAt(BASE, stored, at(20), RETAIN_MS))).toEqual([
      ['first', 'current'],
      ['base-rsa', 'retired'],
      ['base-ec', 'retired'],
      ['next', 'next'],
    ]);
    const revoked = new Map([
      ['base-ec', at(20)],
      ['next', at(20)],
    ]);
    expect(states(keyScheduleAt(BASE, stored, at(20), RETAIN_MS, revoked))).toEqual([
      ['first', 'current'],
      ['base-rsa', 'retired'],
    ]);
  });

  it('keeps the time of a generation revoked whole once it signed: the one before it does not come back', () => {
    // The base set retired at minute 10; the keys that replaced it were revoked and replaced at 20.
    const stored = [generation(10, 'leaked'), generation(20, 'replacement')];
    const revoked = new Map([['leaked', at(20)]]);
    const during = keyScheduleAt(BASE, stored, at(30), RETAIN_MS, revoked);
    expect(states(during)).toEqual([
      ['replacement', 'current'],
      ['base-rsa', 'retired'],
      ['base-ec', 'retired'],
    ]);
    // Published 1440 minutes after minute 10, when it stopped signing, not after minute 20.
    expect(during.keys[1]?.publishedUntil).toEqual(at(10 + 1440));
    expect(states(keyScheduleAt(BASE, stored, at(10 + 1440), RETAIN_MS, revoked))).toEqual([
      ['replacement', 'current'],
    ]);
  });

  it('never lets a generation revoked whole before it signed begin to sign', () => {
    const stored = [generation(60, 'waiting')];
    const revoked = new Map([['waiting', at(30)]]);
    const before = keyScheduleAt(BASE, stored, at(30), RETAIN_MS, revoked);
    expect(states(before)).toEqual([
      ['base-rsa', 'current'],
      ['base-ec', 'current'],
    ]);
    expect(before.nextChangeAt).toBeNull();
    expect(states(keyScheduleAt(BASE, stored, at(90), RETAIN_MS, revoked))).toEqual(states(before));
  });

  it("keeps a revoked key's row while its generation would be published, then lets it go", () => {
    const stored = [generation(10, 'leaked'), generation(20, 'replacement')];
    // Without the row, the base set would have retired at minute 20 and been published again.
    expect(removedKids(BASE, stored, at(30), RETAIN_MS)).toEqual([]);
    expect(removedKids(BASE, stored, at(20 + 1440), RETAIN_MS)).toEqual(['leaked']);
  });

  it('lets the rows of a generation revoked whole before its time go at once, and keeps what signs', () => {
    const stored = [generation(10, 'signing'), generation(60, 'never')];
    const revoked = new Map([['never', at(30)]]);
    // Taken for the signer from minute 60 on, it would retire the keys that sign, and their rows would
    // go 1440 minutes later.
    expect(removedKids(BASE, stored, at(60 + 1440), RETAIN_MS, revoked)).toEqual(['never']);
  });
});

describe('the key schedule at its edges', () => {
  it('counts a generation as never signed only when every key of it was revoked by its time, that very instant included', () => {
    // Revoked at the instant it was to begin: it never signed, and the base set goes on signing.
    const whole = keyScheduleAt(
      BASE,
      [generation(60, 'at-once')],
      at(90),
      RETAIN_MS,
      new Map([['at-once', at(60)]]),
    );
    expect(states(whole)).toEqual([
      ['base-rsa', 'current'],
      ['base-ec', 'current'],
    ]);
    // One of its two keys revoked before its time: the other begins to sign then, and the base retires.
    const part = keyScheduleAt(
      BASE,
      [generation(60, 'revoked-one', 'kept-one')],
      at(90),
      RETAIN_MS,
      new Map([['revoked-one', at(30)]]),
    );
    expect(states(part)).toEqual([
      ['kept-one', 'current'],
      ['base-rsa', 'retired'],
      ['base-ec', 'retired'],
    ]);
  });

  it('names the earliest of the changes to come as the next one', () => {
    // At minute 70: the base set published until 10 + 1440, the next generation signing from 100.
    const schedule = keyScheduleAt(
      BASE,
      [generation(10, 'first'), generation(100, 'next')],
      at(70),
      RETAIN_MS,
    );
    expect(schedule.nextChangeAt).toEqual(at(100));
  });

  it('orders stored rows by their time, whatever order they come in', () => {
    const rows = [
      { jwk: key('later'), activatesAt: at(100) },
      { jwk: key('earlier'), activatesAt: at(10) },
      { jwk: key('earlier-too'), activatesAt: at(10) },
    ];
    expect(generationsOf(rows).map((entry) => [entry.activatesAt, entry.keys.map((jwk) => jwk.kid)])).toEqual(
      [
        [at(10), ['earlier', 'earlier-too']],
        [at(100), ['later']],
      ],
    );
  });
});
