import { readFileSync } from 'node:fs';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '@keycard/contract';
import { normalizeEmail } from './identifiers.ts';

/**
 * The one password policy of Keycard: SPEC §5 (at least 12 characters, a digit, a lowercase and an
 * uppercase letter, a non-alphanumeric character) plus DESIGN §2 (at most 256 characters, not the
 * e-mail itself, not on the shipped list of common passwords). Every check looks at the NFC form, the
 * form that is hashed, and lengths count code points, so an emoji is one character.
 */
export type PasswordRule =
  | 'min_length'
  | 'max_length'
  | 'digit'
  | 'lowercase'
  | 'uppercase'
  | 'symbol'
  | 'not_email'
  | 'common';

const COMMON_PASSWORDS_FILE = new URL('./common-passwords.txt', import.meta.url);

let commonPasswords: ReadonlySet<string> | undefined;

/** The shipped list, read once on first use; entries are lower-case NFC, `#` lines are comments. */
function theCommonPasswords(): ReadonlySet<string> {
  commonPasswords ??= new Set(
    readFileSync(COMMON_PASSWORDS_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim().normalize('NFC').toLowerCase())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
  return commonPasswords;
}

/** True when the password, in any letter case, is on the shipped list of common passwords. */
export function isCommonPassword(password: string): boolean {
  return theCommonPasswords().has(password.normalize('NFC').toLowerCase());
}

/** Every rule `password` breaks, in a fixed order; empty when it is acceptable. */
export function brokenPasswordRules(password: string, email?: string): PasswordRule[] {
  const candidate = password.normalize('NFC');
  const length = [...candidate].length;
  const broken: PasswordRule[] = [];
  if (length < PASSWORD_MIN_LENGTH) broken.push('min_length');
  if (length > PASSWORD_MAX_LENGTH) broken.push('max_length');
  if (!/\p{Nd}/u.test(candidate)) broken.push('digit');
  if (!/\p{Ll}/u.test(candidate)) broken.push('lowercase');
  if (!/\p{Lu}/u.test(candidate)) broken.push('uppercase');
  if (!/[^\p{L}\p{N}]/u.test(candidate)) broken.push('symbol');
  if (email !== undefined && normalizeEmail(candidate) === normalizeEmail(email)) broken.push('not_email');
  if (isCommonPassword(candidate)) broken.push('common');
  return broken;
}

/** True when the password satisfies every rule of the policy. */
export function meetsPasswordPolicy(password: string, email?: string): boolean {
  return brokenPasswordRules(password, email).length === 0;
}
