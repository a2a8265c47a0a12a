import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokenPasswordRules, isCommonPassword, meetsPasswordPolicy } from './password-policy.ts';

const GOOD = 'Correct-Horse-42';
/** Strength is off at 0: the composition tests below pin SPEC §5's rules alone. */
const NO_STRENGTH = 0;
const ADA = { email: 'ada.lovelace@example.com', displayName: 'Ada Lovelace' };

describe('password policy (SPEC §5, DESIGN §2)', () => {
  it('accepts a password with every character class and at least 12 code points', () => {
    expect(brokenPasswordRules(GOOD)).toEqual([]);
    expect(brokenPasswordRules('Ab1!Cd2?Ef3#')).toEqual([]);
    expect(meetsPasswordPolicy(GOOD)).toBe(true);
  });

  it('pins each composition rule on its own', () => {
    expect(brokenPasswordRules('Correct-Horse-xy')).toEqual(['digit']);
    expect(brokenPasswordRules('CORRECT-HORSE-42')).toEqual(['lowercase']);
    expect(brokenPasswordRules('correct-horse-42')).toEqual(['uppercase']);
    expect(brokenPasswordRules('CorrectHorse4242')).toEqual(['symbol']);
    expect(brokenPasswordRules('Cor-Horse-42', {}, NO_STRENGTH)).toEqual([]);
    expect(brokenPasswordRules('Cor-Horse-4')).toEqual(['min_length']);
  });

  it('accepts a space as the only non-alphanumeric character (SPEC §5), and still refuses letters and digits alone', () => {
    expect([...'Kv9 mP2xQ7wz']).toHaveLength(12);
    expect(brokenPasswordRules('Kv9 mP2xQ7wz')).toEqual([]);
    expect(meetsPasswordPolicy('Kv9 mP2xQ7wz')).toBe(true);
    expect(brokenPasswordRules('Kv9pmP2xQ7wz')).toEqual(['symbol']);
    for (const gap of ['\u00a0', '\u2003']) {
      expect(brokenPasswordRules(`Correct${gap}Horse${gap}42`), JSON.stringify(gap)).toEqual([]);
    }
  });

  it('does not count an invisible character as the non-alphanumeric one', () => {
    expect(brokenPasswordRules('Correct\u200dHorse\u200d42')).toEqual(['symbol']);
    expect(brokenPasswordRules('Correct\u2060Horse\u206042')).toEqual(['symbol']);
  });

  it('counts an emoji as one character: 11 code points are too short, 12 are enough', () => {
    const eleven = 'Ab1😀😀😀😀😀😀😀😀';
    const twelve = 'Ab1😀😀😀😀😀😀😀😀😀';
    expect([...eleven]).toHaveLength(11);
    expect(eleven.length).toBe(19);
    expect(brokenPasswordRules(eleven, {}, NO_STRENGTH)).toEqual(['min_length']);
    expect(brokenPasswordRules(twelve, {}, NO_STRENGTH)).toEqual([]);
  });

  it('counts the composed form: e + combining acute is one character', () => {
    expect(brokenPasswordRules('Ab1!aaaaaae\u0301', {}, NO_STRENGTH)).toEqual(['min_length']);
    expect(brokenPasswordRules('Ab1!aaaaaaae\u0301', {}, NO_STRENGTH)).toEqual([]);
  });

  it('accepts 128 and 256 characters and refuses 257', () => {
    const start = 'Kv9#mP2$xQ7!';
    expect(brokenPasswordRules(`${start}${'x'.repeat(116)}`)).toEqual([]);
    expect(brokenPasswordRules(`${start}${'x'.repeat(244)}`)).toEqual([]);
    expect(brokenPasswordRules(`${start}${'x'.repeat(245)}`)).toEqual(['max_length']);
    expect(brokenPasswordRules(`${start}${'😀'.repeat(244)}`)).toEqual([]);
  });

  it('refuses the account’s e-mail address in any letter case', () => {
    expect(brokenPasswordRules('Ada.Lovelace1@Example.com', { email: ' ada.lovelace1@example.com' })).toEqual(
      ['not_email'],
    );
    expect(
      brokenPasswordRules('Ada.Lovelace1@Example.com', { email: 'other@example.com' }, NO_STRENGTH),
    ).toEqual([]);
  });

  it('refuses common passwords that would otherwise pass, whatever their letter case', () => {
    for (const common of ['P@ssw0rd1234', 'Welcome@2024', 'Summer2024!!', 'Passwort123!', '1Qaz@Wsx#Edc']) {
      expect(brokenPasswordRules(common)).toEqual(['common']);
    }
    expect(isCommonPassword('PASSWORD1234')).toBe(true);
    expect(isCommonPassword(GOOD)).toBe(false);
  });

  it('ships several hundred lower-case NFC entries of at least 12 code points', () => {
    const entries = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'));
    expect(entries.length).toBeGreaterThanOrEqual(300);
    for (const entry of entries) {
      expect(entry).toBe(entry.normalize('NFC').toLowerCase().trim());
      expect([...entry].length).toBeGreaterThanOrEqual(12);
    }
  });
});

describe('password strength in context (PASSWORD_MIN_SCORE, default 3)', () => {
  it.each([
    ['the product name and a year', 'Keycard@2027'],
    ['the product name inside', 'MyKeycard#2026'],
    ['a common word and a year', 'Welcome@2026'],
    ['a common sequence', 'Aa123456789!'],
    ['a keyboard walk', 'Zaq12wsx!@#$'],
    ['the e-mail address plus 1', 'Ada.Lovelace@example.com1'],
    ['the local part plus !1A', 'ada.lovelace!1A'],
    ['the display name and a year', 'AdaLovelace2026!'],
    ['the display name reversed', 'Lovelace#Ada1'],
    ['the display name spaced out', 'Ada-Lovelace-99'],
    ['an initial and the surname', 'A.Lovelace!1815'],
  ])('refuses %s: %s', (_what, password) => {
    expect(brokenPasswordRules(password, ADA)).toEqual(['weak']);
    expect(meetsPasswordPolicy(password, ADA)).toBe(false);
  });

  it('judges what is left without the person’s and the product’s names', () => {
    // Strong on their own, so context words inside them do not make them weak.
    expect(brokenPasswordRules('Ada-Violet-Harbour-Lantern-93', ADA)).toEqual([]);
    expect(brokenPasswordRules('Keycard-Quokka-Ferment-71', ADA)).toEqual([]);
    // The same shape without a context word is judged on its words alone.
    expect(brokenPasswordRules('Ada-Lovelace-99', { email: 'x@example.org' })).toEqual([]);
  });

  it('crosses the configured minimum: a score of 2 passes at 2 and fails at 3; 3 passes at 3, fails at 4', () => {
    expect(brokenPasswordRules('Welcome@2026', ADA, 2)).toEqual([]);
    expect(brokenPasswordRules('Welcome@2026', ADA, 3)).toEqual(['weak']);
    expect(brokenPasswordRules('Passwort!2024', ADA, 3)).toEqual([]);
    expect(brokenPasswordRules('Passwort!2024', ADA, 4)).toEqual(['weak']);
    expect(brokenPasswordRules('Violet-Harbour-Lantern-93', ADA, 4)).toEqual([]);
  });

  it('checks no strength at 0, and none for a password another rule already refuses', () => {
    expect(brokenPasswordRules('Aa123456789!', ADA, 0)).toEqual([]);
    expect(brokenPasswordRules('Aa123456789x', ADA)).toEqual(['symbol']);
    expect(brokenPasswordRules('Welcome@2024', ADA)).toEqual(['common']);
  });
});
