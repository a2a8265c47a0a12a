import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brokenPasswordRules, isCommonPassword } from './password-policy.ts';

const LIST = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8').split('\n');

describe('the shipped list of common passwords, as read', () => {
  it('holds no comment line: a password spelled like one is judged on its own', () => {
    const comments = LIST.filter((line) => line.startsWith('#'));
    expect(comments.length).toBeGreaterThan(0);
    for (const comment of comments) expect(isCommonPassword(comment)).toBe(false);
  });

  it('holds no empty entry: an empty password breaks the composition rules, not the list', () => {
    expect(isCommonPassword('')).toBe(false);
    expect(brokenPasswordRules('')).toEqual(['min_length', 'digit', 'lowercase', 'uppercase', 'symbol']);
  });
});

describe('isCommonPassword', () => {
  it('finds an entry typed in its decomposed form and another letter case', () => {
    // "ü" as u + combining diaeresis, as some keyboards and browsers send it.
    expect(isCommonPassword('Fru\u0308hling2024!')).toBe(true);
    expect(isCommonPassword('FRU\u0308HLING2024!')).toBe(true);
  });
});
