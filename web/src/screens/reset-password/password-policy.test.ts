import { PASSWORD_MIN_LENGTH } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { meetsPolicy, REQUIREMENTS, type Requirement } from './password-policy.ts';

const rule = (id: Requirement['id']) => {
  const found = REQUIREMENTS.find((requirement) => requirement.id === id);
  if (!found) throw new Error(`no requirement ${id}`);
  return found;
};

describe('password policy of the reset form (SPEC §5)', () => {
  it('lists length, digit, lowercase, uppercase and special, the length filled with the minimum', () => {
    expect(REQUIREMENTS.map((requirement) => requirement.id)).toEqual([
      'length',
      'digit',
      'lowercase',
      'uppercase',
      'special',
    ]);
    expect(rule('length').values).toEqual({ length: 12 });
    expect(PASSWORD_MIN_LENGTH).toBe(12);
  });

  it('counts code points: 11 fail and 12 pass, an emoji counting once', () => {
    expect(rule('length').isMetBy('Abcdefgh1!x')).toBe(false);
    expect(rule('length').isMetBy('Abcdefgh1!xy')).toBe(true);
    // 10 characters and an emoji: 12 UTF-16 units, but 11 code points.
    expect('Abcdefgh1!😀'.length).toBe(12);
    expect(rule('length').isMetBy('Abcdefgh1!😀')).toBe(false);
    expect(rule('length').isMetBy('Abcdefgh1!😀z')).toBe(true);
  });

  it('counts the composed form, as the service hashes it', () => {
    // "e" + combining acute accent is one character after NFC.
    expect(rule('length').isMetBy(`Abcdefgh1!e\u0301`)).toBe(false);
  });

  it('needs a digit', () => {
    expect(rule('digit').isMetBy('Abcdefghij!k')).toBe(false);
    expect(rule('digit').isMetBy('Abcdefghij!7')).toBe(true);
  });

  it('needs a lowercase letter, in any script', () => {
    expect(rule('lowercase').isMetBy('ABCDEFGH1!XY')).toBe(false);
    expect(rule('lowercase').isMetBy('ABCDEFGH1!Xß')).toBe(true);
  });

  it('needs an uppercase letter, in any script', () => {
    expect(rule('uppercase').isMetBy('abcdefgh1!xy')).toBe(false);
    expect(rule('uppercase').isMetBy('abcdefgh1!xÄ')).toBe(true);
  });

  it('needs a character that is not a letter or digit; a space and an emoji count, a tab does not', () => {
    expect(rule('special').isMetBy('Abcdefgh1xyz')).toBe(false);
    expect(rule('special').isMetBy('Abcdefgh1xÿz')).toBe(false);
    expect(rule('special').isMetBy('Abcdefgh1 yz')).toBe(true);
    expect(rule('special').isMetBy('Abcdefgh1\tyz')).toBe(false);
    expect(rule('special').isMetBy('Abcdefgh1.yz')).toBe(true);
    expect(rule('special').isMetBy('Abcdefgh1😀z')).toBe(true);
  });

  it('accepts a password only when every requirement is met', () => {
    expect(meetsPolicy('Abcdefgh1!xy')).toBe(true);
    for (const weak of ['Abcdefgh1!x', 'Abcdefghi!xy', 'ABCDEFGH1!XY', 'abcdefgh1!xy', 'Abcdefgh1xyz']) {
      expect(meetsPolicy(weak)).toBe(false);
    }
  });
});
