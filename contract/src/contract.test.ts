import { describe, expect, it } from 'vitest';
import {
  fillText,
  LOCALIZED_TEXT_KEYS,
  languageFor,
  loginRequest,
  SITE_TEXT_KEYS,
  VerificationType,
  verificationTypeSchema,
} from './index.ts';

describe('verification types', () => {
  it('accept exactly the numbers of SPEC §3', () => {
    expect(Object.values(VerificationType)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(verificationTypeSchema.safeParse(7).success).toBe(true);
    expect(verificationTypeSchema.safeParse(8).success).toBe(false);
    expect(verificationTypeSchema.safeParse('1').success).toBe(false);
  });
});

describe('text keys', () => {
  it('are unique and do not overlap between localised and site keys', () => {
    const all = [...LOCALIZED_TEXT_KEYS, ...SITE_TEXT_KEYS];
    expect(new Set(all).size).toBe(all.length);
  });
});

describe('languageFor', () => {
  it('picks by primary subtag and falls back to English', () => {
    expect(languageFor('de-CH')).toBe('de');
    expect(languageFor('DE')).toBe('de');
    expect(languageFor('en-US')).toBe('en');
    expect(languageFor('fr-FR')).toBe('en');
    expect(languageFor('')).toBe('en');
    expect(languageFor(undefined)).toBe('en');
  });
});

describe('fillText', () => {
  it('fills known placeholders and keeps unknown ones', () => {
    expect(fillText('Hello {userName}, {unknown}', { userName: 'Ada' })).toBe('Hello Ada, {unknown}');
    expect(fillText('{length} characters', { length: 12 })).toBe('12 characters');
  });
});

describe('loginRequest', () => {
  it('rejects unknown fields and oversized values, naming the field', () => {
    const extra = loginRequest.safeParse({ Username: 'a@b.c', Password: 'x', ReturnUrl: '/', admin: true });
    expect(extra.success).toBe(false);
    const long = loginRequest.safeParse({ Username: 'a@b.c', Password: 'x'.repeat(1025) });
    expect(long.success).toBe(false);
    expect(long.error?.issues[0]?.path).toEqual(['Password']);
  });
});
