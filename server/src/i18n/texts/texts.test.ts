import { type LanguageTexts, LOCALIZED_TEXT_KEYS, type LocalizedTextKey } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { de } from './de.ts';
import { en } from './en.ts';

/** Placeholders documented in contract/src/text-keys.ts; the SPA fills nothing else. */
const DOCUMENTED_PLACEHOLDERS = [
  'userName',
  'userFirstName',
  'host',
  'length',
  'product',
  'phone',
  'email',
  'date',
  'reference',
  'wait',
  'seconds',
  'requirements',
];

/** Placeholders a key's contract comment requires, so the SPA's value actually shows up. */
const REQUIRED_PLACEHOLDERS: Partial<Record<LocalizedTextKey, readonly string[]>> = {
  logoffGreeting: ['userName'],
  unlockSuccessful: ['userName'],
  newEmailVerified: ['userFirstName'],
  passwordLengthRequirement: ['length'],
  passwordRequirementsMissing: ['requirements'],
  incorrectAccessSuggestion1: ['host'],
  greetingMorning: ['userName'],
  greetingDay: ['userName'],
  greetingEvening: ['userName'],
  backTo: ['product'],
  usingPhone: ['phone'],
  usingEmail: ['email'],
  imprintLegalHint: ['host'],
  errorReference: ['reference'],
  tooManyRequests: ['wait'],
  redirectCountdown: ['seconds'],
  redirectAnnouncement: ['seconds'],
};

/** Values that are the same word in both languages. */
const SAME_IN_BOTH: readonly LocalizedTextKey[] = ['imprintFax', 'imprintComponentVersion'];

const languages: ReadonlyArray<readonly [string, LanguageTexts]> = [
  ['en', en],
  ['de', de],
];

function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1] ?? '').sort();
}

describe.each(languages)('%s texts', (_language, texts) => {
  it('has exactly the localised keys of the contract, no missing and no extra', () => {
    expect(Object.keys(texts).sort()).toEqual([...LOCALIZED_TEXT_KEYS].sort());
  });

  it('has no empty or whitespace-only value', () => {
    for (const key of LOCALIZED_TEXT_KEYS) {
      expect(typeof texts[key], key).toBe('string');
      expect(texts[key].trim(), key).not.toBe('');
    }
  });

  it('uses only documented placeholders, each well-formed', () => {
    for (const key of LOCALIZED_TEXT_KEYS) {
      const text = texts[key];
      for (const name of placeholdersOf(text)) expect(DOCUMENTED_PLACEHOLDERS, key).toContain(name);
      // A brace outside a {name} placeholder would reach the user unfilled.
      expect(text.replace(/\{\w+\}/g, ''), key).not.toMatch(/[{}]/);
    }
  });

  it('carries the placeholder each key is documented with', () => {
    for (const [key, names] of Object.entries(REQUIRED_PLACEHOLDERS)) {
      const used = placeholdersOf(texts[key as LocalizedTextKey]);
      for (const name of names ?? []) expect(used, key).toContain(name);
    }
  });

  it('has three distinct incorrect-access suggestions', () => {
    const suggestions = new Set([
      texts.incorrectAccessSuggestion1,
      texts.incorrectAccessSuggestion2,
      texts.incorrectAccessSuggestion3,
    ]);
    expect(suggestions.size).toBe(3);
  });
});

describe('English and German texts', () => {
  it('use the same placeholders in every key', () => {
    for (const key of LOCALIZED_TEXT_KEYS) {
      expect(placeholdersOf(de[key]), key).toEqual(placeholdersOf(en[key]));
    }
  });

  it('are translated rather than copied', () => {
    const copied = LOCALIZED_TEXT_KEYS.filter((key) => en[key] === de[key] && !SAME_IN_BOTH.includes(key));
    expect(copied).toEqual([]);
  });

  it('word the error page as SPEC §2 states', () => {
    expect(en.errorTitle).toBe("We're sorry!");
    expect(en.somethingWentWrong).toBe('Something went wrong.');
    expect(de.errorTitle).toBe('Es tut uns leid!');
    expect(de.somethingWentWrong).toBe('Etwas ist schiefgelaufen.');
  });

  it('never tell a failed sign-in or a reset request whether the account exists', () => {
    expect(en.checkYourEmail).toMatch(/^If an account exists for this address/);
    expect(de.checkYourEmail).toMatch(/^Falls für diese Adresse ein Konto besteht/);
    for (const texts of [en, de]) {
      expect(texts.wrongPasswordOrUnknownUser).not.toMatch(
        /unknown|not found|does not exist|unbekannt|existiert nicht/i,
      );
    }
  });
});
