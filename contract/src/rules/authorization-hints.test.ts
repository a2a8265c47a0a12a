import { describe, expect, it } from 'vitest';
import { productNameField } from '../schemas/admin-fields.ts';
import {
  firstSupportedLanguage,
  isPlausibleEmail,
  MAX_LOGIN_HINT_LENGTH,
  usableLoginHint,
  usableProductName,
} from './authorization-hints.ts';

describe('usableProductName', () => {
  it('keeps a name of up to 100 characters, trimmed, as a client may register it', () => {
    expect(usableProductName('  Rooms Pro ')).toBe('Rooms Pro');
    expect(usableProductName('R'.repeat(100))).toBe('R'.repeat(100));
    expect(productNameField.safeParse('R'.repeat(100)).success).toBe(true);
  });

  it('drops a missing, empty, longer or control-character one, which no client can register either', () => {
    for (const made of [
      undefined,
      null,
      '  ',
      'R'.repeat(101),
      'Rooms\nYour account is locked',
      'Rooms\u0085',
    ]) {
      expect(usableProductName(made)).toBeNull();
      expect(productNameField.safeParse(made).success).toBe(false);
    }
  });
});

describe('usableLoginHint', () => {
  it('trims a hint and keeps it', () => {
    expect(usableLoginHint('  ada@example.com ')).toBe('ada@example.com');
    expect(usableLoginHint('ada')).toBe('ada');
  });

  it('drops a missing, empty, overlong or control-character hint', () => {
    expect(usableLoginHint(undefined)).toBeNull();
    expect(usableLoginHint(null)).toBeNull();
    expect(usableLoginHint('   ')).toBeNull();
    expect(usableLoginHint(`${'a'.repeat(MAX_LOGIN_HINT_LENGTH - 12)}@example.com`)).not.toBeNull();
    expect(usableLoginHint(`${'a'.repeat(MAX_LOGIN_HINT_LENGTH - 11)}@example.com`)).toBeNull();
    expect(usableLoginHint('ada@example.com\nBcc: eve@example.com')).toBeNull();
    expect(usableLoginHint('ada\u0000@example.com')).toBeNull();
  });
});

describe('isPlausibleEmail', () => {
  it.each(['ada@example.com', 'a.b+c@mail.example.co.uk', 'ÄDA@bücher.example'])(
    '%s is plausible',
    (value) => {
      expect(isPlausibleEmail(value)).toBe(true);
    },
  );

  it.each([
    'ada',
    'ada@localhost',
    '@example.com',
    'ada@',
    'a da@example.com',
    'ada@@example.com',
    'ada@.example.com',
    'ada@example..com',
    'ada@example.com.',
  ])('%s is not', (value) => {
    expect(isPlausibleEmail(value)).toBe(false);
  });
});

describe('firstSupportedLanguage (ui_locales)', () => {
  it('takes the first tag whose language the resource is written in', () => {
    expect(firstSupportedLanguage('de')).toBe('de');
    expect(firstSupportedLanguage('fr-CA de-AT en')).toBe('de');
    expect(firstSupportedLanguage('EN-gb de')).toBe('en');
    expect(firstSupportedLanguage('de_CH')).toBe('de');
  });

  it('answers null when no tag is supported, so the browser language applies', () => {
    expect(firstSupportedLanguage('fr it')).toBeNull();
    expect(firstSupportedLanguage('')).toBeNull();
    expect(firstSupportedLanguage(undefined)).toBeNull();
    expect(firstSupportedLanguage(null)).toBeNull();
  });
});
