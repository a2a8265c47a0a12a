import { describe, expect, it } from 'vitest';
import { brokenPasswordRules } from '../accounts/password-policy.ts';
import { describeBrokenRules } from './password-message.ts';

describe('password policy message for admins', () => {
  it('lists what the password needs, in the policy order', () => {
    expect(describeBrokenRules(brokenPasswordRules('short'))).toBe(
      'the password needs at least 12 characters, a digit, an uppercase letter and a character that is not a letter or digit (a space or a symbol such as ! or #)',
    );
  });

  it('names the length cap, the e-mail rule and the common-password list', () => {
    expect(describeBrokenRules(brokenPasswordRules(`Aa1!${'a'.repeat(253)}`))).toBe(
      'the password may have at most 256 characters',
    );
    expect(
      describeBrokenRules(
        brokenPasswordRules('Ada.Lovelace1@Example.com', { email: 'ada.lovelace1@example.com' }),
      ),
    ).toBe('the password must not be the e-mail address');
    expect(describeBrokenRules(['digit', 'common'])).toBe(
      'the password needs a digit and is on the list of common passwords',
    );
  });

  it('says a password is too easy to guess', () => {
    expect(describeBrokenRules(brokenPasswordRules('MyKeycard#2026'))).toBe(
      'the password is too easy to guess (common words, names, dates or the account’s own details)',
    );
  });

  it('never quotes the password', () => {
    const password = 'weak-but-long-enough';
    expect(describeBrokenRules(brokenPasswordRules(password))).not.toContain(password);
  });
});
