import { describe, expect, it } from 'vitest';
import { plainText } from '../schemas/plain-text.ts';
import { BAD_CHARACTER_MESSAGE, isPlainText } from './plain-text.ts';

const char = (code: number) => String.fromCharCode(code);

describe('isPlainText (DESIGN §2 Bad input)', () => {
  it.each([0x00, 0x09, 0x0a, 0x0d, 0x1b, 0x1f, 0x7f, 0x80, 0x9f])(
    'refuses the control character U+%s',
    (code) => {
      expect(isPlainText(`a${char(code)}b`)).toBe(false);
    },
  );

  it.each([0x20, 0x7e, 0xa0, 0xe9, 0x2028, 0xfffd])('accepts U+%s, which is no control character', (code) => {
    expect(isPlainText(`a${char(code)}b`)).toBe(true);
  });

  it('refuses a surrogate half without its partner, at either end or alone', () => {
    for (const value of ['\ud800', 'a\udbff', '\udc00b', 'x\udfffx', '\ude00\ud83d']) {
      expect(isPlainText(value)).toBe(false);
    }
  });

  it('accepts paired surrogates (an emoji), letters of any script and the empty string', () => {
    for (const value of ['\ud83d\ude00', 'Grüße, Ünal', 'Ελληνικά 日本語', '']) {
      expect(isPlainText(value)).toBe(true);
    }
  });
});

describe('plainText, the string schema of every input field', () => {
  it('refuses a bad character with the message naming the rule, before its own checks', () => {
    const schema = plainText().trim().min(5, 'too short');
    const result = schema.safeParse('\u0000');
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([BAD_CHARACTER_MESSAGE, 'too short']);
  });

  it('keeps the checks chained after it and its own error for a missing value', () => {
    const schema = plainText({ error: 'is required' }).trim().max(3, 'too long');
    expect(schema.parse('  abc  ')).toBe('abc');
    expect(schema.safeParse('abcd').error?.issues[0]?.message).toBe('too long');
    expect(schema.safeParse(undefined).error?.issues[0]?.message).toBe('is required');
  });
});
