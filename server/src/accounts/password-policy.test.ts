import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokenPasswordRules, isCommonPassword, meetsPasswordPolicy } from './password-policy.ts';

const GOOD = 'Correct-Horse-42';

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
    expect(brokenPasswordRules('Cor-Horse-42')).toEqual([]);
    expect(brokenPasswordRules('Cor-Horse-4')).toEqual(['min_length']);
  });

  it('counts an emoji as one character: 11 code points are too short, 12 are enough', () => {
    const eleven = 'Ab1😀😀😀😀😀😀😀😀';
    const twelve = 'Ab1😀😀😀😀😀😀😀😀😀';
    expect([...eleven]).toHaveLength(11);
    expect(eleven.length).toBe(19);
    expect(brokenPasswordRules(eleven)).toEqual(['min_length']);
    expect(brokenPasswordRules(twelve)).toEqual([]);
  });

  it('counts the composed form: e + combining acute is one character', () => {
    expect(brokenPasswordRules('Ab1!aaaaaae\u0301')).toEqual(['min_length']);
    expect(brokenPasswordRules('Ab1!aaaaaaae\u0301')).toEqual([]);
  });

  it('accepts 128 and 256 characters and refuses 257', () => {
    expect(brokenPasswordRules(`Ab1!${'x'.repeat(124)}`)).toEqual([]);
    expect(brokenPasswordRules(`Ab1!${'x'.repeat(252)}`)).toEqual([]);
    expect(brokenPasswordRules(`Ab1!${'x'.repeat(253)}`)).toEqual(['max_length']);
    expect(brokenPasswordRules(`Ab1!${'😀'.repeat(252)}`)).toEqual([]);
  });

  it('refuses the account’s e-mail address in any letter case', () => {
    expect(brokenPasswordRules('Ada.Lovelace1@Example.com', ' ada.lovelace1@example.com')).toEqual([
      'not_email',
    ]);
    expect(brokenPasswordRules('Ada.Lovelace1@Example.com', 'other@example.com')).toEqual([]);
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
