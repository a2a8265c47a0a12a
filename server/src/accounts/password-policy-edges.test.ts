import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './password-policy.ts';

type PasswordPolicy = typeof import('./password-policy.ts');

/**
 * The module as a fresh process first sees it: the list is read on first use and kept, so a test
 * of how it is read needs an instance that has not read it yet (the query makes a separate one).
 */
let instances = 0;
async function freshPolicy(): Promise<PasswordPolicy> {
  instances += 1;
  const specifier = `./password-policy.ts?fresh=${instances}`;
  return (await import(specifier)) as PasswordPolicy;
}

const LIST = readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8').split('\n');

describe('the shipped list of common passwords, as read', () => {
  it('holds no comment line: a password spelled like one is judged on its own', async () => {
    const { isCommonPassword } = await freshPolicy();
    const comments = LIST.filter((line) => line.startsWith('#'));
    expect(comments.length).toBeGreaterThan(0);
    for (const comment of comments) expect(isCommonPassword(comment)).toBe(false);
  });

  it('holds every entry of the file', async () => {
    const { isCommonPassword } = await freshPolicy();
    const entries = LIST.filter((line) => line !== '' && !line.startsWith('#'));
    expect(entries.length).toBeGreaterThan(300);
    for (const entry of entries) expect(isCommonPassword(entry), entry).toBe(true);
  });

  it('holds no empty entry: an empty password breaks the composition rules, not the list', async () => {
    const { isCommonPassword, brokenPasswordRules } = await freshPolicy();
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
