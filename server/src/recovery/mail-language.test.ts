import { describe, expect, it } from 'vitest';
import { mailLanguage } from './mail-language.ts';

describe('mailLanguage (DESIGN §2 Mail)', () => {
  it("is the account's language when it has one, whatever the sign-in or the request asked", () => {
    expect(mailLanguage({ locale: 'de' }, 'en', 'en')).toBe('de');
    expect(mailLanguage({ locale: 'en' }, 'de', 'de')).toBe('en');
  });

  it("is the sign-in's language (ui_locales) for an account without one, over the request's", () => {
    expect(mailLanguage({ locale: null }, 'en', 'de')).toBe('de');
  });

  it("is the request's language when neither says, and English when nothing does", () => {
    expect(mailLanguage({ locale: null }, 'de')).toBe('de');
    expect(mailLanguage({ locale: null })).toBe('en');
  });
});
