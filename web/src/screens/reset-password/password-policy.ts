import { PASSWORD_COMPOSITION_RULES, type PasswordCompositionRule } from '@keycard/contract';

/** One line of the policy list (SPEC §5): its text, with values for the text's placeholders. */
export type Requirement = PasswordCompositionRule;

/**
 * SPEC §5, as the service checks it (DESIGN §2): the contract's composition rules, the very ones the
 * service applies. The service also refuses common and earlier passwords; those it answers with a
 * violation, as the list cannot know them.
 */
export const REQUIREMENTS: readonly Requirement[] = PASSWORD_COMPOSITION_RULES;

/** Whether `password` meets every requirement of the list. */
export function meetsPolicy(password: string): boolean {
  return REQUIREMENTS.every((requirement) => requirement.isMetBy(password));
}
