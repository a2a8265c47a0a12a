import { PASSWORD_MIN_LENGTH } from '../constants.ts';
import type { TextKey } from '../text-keys.ts';

/** The composition rules of SPEC §5, one for each line of the policy list the reset form shows. */
export type PasswordCompositionRuleId = 'length' | 'digit' | 'lowercase' | 'uppercase' | 'special';

/** One composition rule: the text of its line, values for the text's placeholders, and its check. */
export interface PasswordCompositionRule {
  readonly id: PasswordCompositionRuleId;
  readonly text: TextKey;
  readonly values?: Readonly<Record<string, number>>;
  readonly isMetBy: (password: string) => boolean;
}

/**
 * Each rule looks at the NFC form, the form the service hashes (DESIGN §2): "e" + combining acute is
 * one lowercase letter there, not a letter and a non-alphanumeric mark, so the SPA's list and the
 * service's check judge the same characters.
 */
const composed = (password: string): string => password.normalize('NFC');

/**
 * SPEC §5's non-alphanumeric character: anything but a letter, a combining mark or a number, so a
 * space, a punctuation mark, a symbol or an emoji. Invisible characters (controls, format characters
 * such as a zero-width joiner, private-use and unassigned code points, the line and paragraph
 * separators) do not count: one no one sees must not make a password of letters and digits
 * acceptable. Controls are refused as bad input anyway (rules/plain-text.ts).
 */
const NON_ALPHANUMERIC = /[^\p{L}\p{M}\p{N}\p{C}\p{Zl}\p{Zp}]/u;

/**
 * SPEC §5, written once for the SPA and the service: at least PASSWORD_MIN_LENGTH code points (an
 * emoji is one), a digit, a lowercase and an uppercase letter in any script, and a non-alphanumeric
 * character (NON_ALPHANUMERIC). The service adds its own rules on top (DESIGN §2: maximum length, not
 * the e-mail, not a common password, strength); the SPA cannot know all of those and shows the
 * service's violation.
 */
export const PASSWORD_COMPOSITION_RULES: readonly PasswordCompositionRule[] = [
  {
    id: 'length',
    text: 'passwordLengthRequirement',
    values: { length: PASSWORD_MIN_LENGTH },
    isMetBy: (password) => [...composed(password)].length >= PASSWORD_MIN_LENGTH,
  },
  {
    id: 'digit',
    text: 'passwordDigitRequirement',
    isMetBy: (password) => /\p{Nd}/u.test(composed(password)),
  },
  {
    id: 'lowercase',
    text: 'passwordLowercaseRequirement',
    isMetBy: (password) => /\p{Ll}/u.test(composed(password)),
  },
  {
    id: 'uppercase',
    text: 'passwordUppercaseRequirement',
    isMetBy: (password) => /\p{Lu}/u.test(composed(password)),
  },
  {
    id: 'special',
    text: 'passwordSpecialRequirement',
    isMetBy: (password) => NON_ALPHANUMERIC.test(composed(password)),
  },
];
