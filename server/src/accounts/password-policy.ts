import { readFileSync } from 'node:fs';
import {
  DEFAULT_PASSWORD_MIN_SCORE,
  PASSWORD_COMPOSITION_RULES,
  PASSWORD_MAX_LENGTH,
  type PasswordCompositionRuleId,
  type PasswordContext,
  type StrengthScore,
} from '@keycard/contract';
import { normalizeEmail } from './identifiers.ts';
import { passwordStrength } from './password-strength.ts';

/**
 * The one password policy of Keycard: SPEC §5's composition rules (at least 12 characters, a digit, a
 * lowercase and an uppercase letter, a non-alphanumeric character), which live in the contract so the
 * SPA's policy list applies the very same ones, plus DESIGN §2's rules only the service can check (at
 * most 256 characters, not the e-mail itself, not on the shipped list of common passwords), plus a
 * least strength that knows the context (`weak`: contract rules/password-strength.ts, configured by
 * PASSWORD_MIN_SCORE). Every check looks at the NFC form, the form that is hashed, and lengths count
 * code points, so an emoji is one character.
 */
export type PasswordRule =
  | 'min_length'
  | 'max_length'
  | 'digit'
  | 'lowercase'
  | 'uppercase'
  | 'symbol'
  | 'not_email'
  | 'common'
  | 'weak';

/** The name each composition rule of the contract has in this policy's answers. */
const COMPOSITION_RULE: Readonly<Record<PasswordCompositionRuleId, PasswordRule>> = {
  length: 'min_length',
  digit: 'digit',
  lowercase: 'lowercase',
  uppercase: 'uppercase',
  special: 'symbol',
};

const COMMON_PASSWORDS_FILE = new URL('./common-passwords.txt', import.meta.url);

let commonPasswords: ReadonlySet<string> | undefined;

/** The shipped list, read once on first use; entries are lower-case NFC, `#` lines are comments. */
function theCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
      .split('\n')
      // Stryker disable next-line MethodExpression: the shipped file is trimmed lower-case NFC already, which password-policy.test.ts checks
      .map((line) => line.trim().normalize('NFC').toLowerCase())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return commonPasswords;
}

/** True when the password, in any letter case, is on the shipped list of common passwords. */
export function isCommonPassword(password: string): boolean {
  return theCommonPasswords().has(password.normalize('NFC').toLowerCase());
}

/**
 * Every rule `password` breaks, in a fixed order; empty when it is acceptable. `context` is the
 * person's address and name (not the e-mail itself, and no strength from them); `minScore` the least
 * strength (PASSWORD_MIN_SCORE). Strength is judged last and only for a password every other rule
 * accepts: the estimator is the costly check, and its verdict adds nothing to a refusal.
 */
export function brokenPasswordRules(
  password: string,
  context: PasswordContext = {},
  minScore: StrengthScore = DEFAULT_PASSWORD_MIN_SCORE,
): PasswordRule[] {
  const { email } = context;
  const candidate = password.normalize('NFC');
  // No password is both too short and too long, so the upper bound coming first keeps the order
  // min_length, max_length, digit, … of the rules above.
  const broken: PasswordRule[] = [...candidate].length > PASSWORD_MAX_LENGTH ? ['max_length'] : [];
  for (const rule of PASSWORD_COMPOSITION_RULES) {
    if (!rule.isMetBy(candidate)) broken.push(COMPOSITION_RULE[rule.id]);
  }
  if (email && normalizeEmail(candidate) === normalizeEmail(email)) broken.push('not_email');
  if (isCommonPassword(candidate)) broken.push('common');
  if (broken.length === 0 && passwordStrength(candidate, context) < minScore) broken.push('weak');
  return broken;
}

/** True when the password satisfies every rule of the policy. */
export function meetsPasswordPolicy(
  password: string,
  context: PasswordContext = {},
  minScore: StrengthScore = DEFAULT_PASSWORD_MIN_SCORE,
): boolean {
  return brokenPasswordRules(password, context, minScore).length === 0;
}
