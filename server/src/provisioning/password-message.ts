import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@keycard/contract';
import type { PasswordRule } from '../accounts/password-policy.ts';

/** What each composition rule asks for, phrased to follow "needs". */
const NEEDS: Partial<Record<PasswordRule, string>> = {
  min_length: `at least ${PASSWORD_MIN_LENGTH} characters`,
  digit: 'a digit',
  lowercase: 'a lowercase letter',
  uppercase: 'an uppercase letter',
  symbol: 'a character that is not a letter or digit (a space or a symbol such as ! or #)',
};

/**
 * The broken rules of the password policy (accounts/password-policy.ts) as one line for an admin,
 * e.g. "the password needs at least 12 characters and a digit". Never quotes the password.
 */
export function describeBrokenRules(broken: readonly PasswordRule[]): string {
  const needs = broken.flatMap((rule) => NEEDS[rule] ?? []);
  const problems = [
    ...(needs.length > 0 ? [`needs ${joinWithAnd(needs)}`] : []),
    ...(broken.includes('max_length') ? [`may have at most ${PASSWORD_MAX_LENGTH} characters`] : []),
    ...(broken.includes('not_email') ? ['must not be the e-mail address'] : []),
    ...(broken.includes('common') ? ['is on the list of common passwords'] : []),
    ...(broken.includes('weak')
      ? ['is too easy to guess (common words, names, dates or the account’s own details)']
      : []),
  ];
  return `the password ${joinWithAnd(problems)}`;
}

function joinWithAnd(parts: readonly string[]): string {
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : (parts[0] ?? '');
}
