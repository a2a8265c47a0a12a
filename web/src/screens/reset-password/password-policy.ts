import { PASSWORD_MIN_LENGTH, type TextKey } from '@keycard/contract';

/** One line of the policy list (SPEC §5): its text, with values for the text's placeholders. */
export interface Requirement {
  readonly id: 'length' | 'digit' | 'lowercase' | 'uppercase' | 'special';
  readonly text: TextKey;
  readonly values?: Readonly<Record<string, number>>;
  readonly isMetBy: (password: string) => boolean;
}

/**
 * SPEC §5, as the service checks it (DESIGN §2): at least PASSWORD_MIN_LENGTH code points of the NFC
 * form (an emoji is one), a digit, a lowercase and an uppercase letter, and a character that is
 * neither a letter nor a digit. The service also refuses common and earlier passwords; those it
 * answers with a violation, as the list cannot know them.
 */
export const REQUIREMENTS: readonly Requirement[] = [
  {
    id: 'length',
    text: 'passwordLengthRequirement',
    values: { length: PASSWORD_MIN_LENGTH },
    isMetBy: (password) => [...password.normalize('NFC')].length >= PASSWORD_MIN_LENGTH,
  },
  { id: 'digit', text: 'passwordDigitRequirement', isMetBy: (password) => /\p{Nd}/u.test(password) },
  { id: 'lowercase', text: 'passwordLowercaseRequirement', isMetBy: (password) => /\p{Ll}/u.test(password) },
  { id: 'uppercase', text: 'passwordUppercaseRequirement', isMetBy: (password) => /\p{Lu}/u.test(password) },
  {
    id: 'special',
    text: 'passwordSpecialRequirement',
    isMetBy: (password) => /[^\p{L}\p{N}]/u.test(password),
  },
];

/** Whether `password` meets every requirement of the list. */
export function meetsPolicy(password: string): boolean {
  return REQUIREMENTS.every((requirement) => requirement.isMetBy(password));
}
