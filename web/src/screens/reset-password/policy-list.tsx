import { useText } from '../../text/use-text.ts';
import { REQUIREMENTS } from './password-policy.ts';
import { RequirementIcon, type RequirementState } from './requirement-icons.tsx';

interface PolicyListProps {
  /** The list's id: the new-password field is described by it. */
  readonly id: string;
  readonly password: string;
  /** Before validation switches on (SPEC §5) an unmet requirement is shown neutral, not as an error. */
  readonly validating: boolean;
}

/**
 * SPEC §5: the password policy list with the length filled in. Each line says whether the new
 * password meets it, with an icon and a state text for assistive technology, not colour alone; a
 * line under the list names the rules still unmet as the person types.
 */
export function PolicyList({ id, password, validating }: PolicyListProps) {
  const { t } = useText();
  const missing = REQUIREMENTS.filter((requirement) => !requirement.isMetBy(password)).map((requirement) =>
    t(requirement.text, requirement.values),
  );
  const summary =
    missing.length === 0
      ? t('passwordRequirementsAllMet')
      : t('passwordRequirementsMissing', { requirements: missing.join('; ') });
  return (
    <div id={id} className="policy">
      <p id={`${id}-heading`} className="policy__heading">
        {t('passwordPolicyHeading')}
      </p>
      <ul className="policy__list" aria-labelledby={`${id}-heading`}>
        {REQUIREMENTS.map((requirement) => {
          const met = requirement.isMetBy(password);
          const state: RequirementState = met ? 'met' : validating ? 'unmet' : 'pending';
          return (
            <li key={requirement.id} className={`policy__item policy__item--${state}`} data-met={met}>
              <RequirementIcon state={state} />
              <span>{t(requirement.text, requirement.values)}</span>{' '}
              <span className="visually-hidden">{t(met ? 'requirementMet' : 'requirementNotMet')}</span>
            </li>
          );
        })}
      </ul>
      {/* Polite and only changed when a rule flips, so typing is not talked over on every key. */}
      <p className="policy__summary" aria-live="polite">
        {password === '' ? null : summary}
      </p>
    </div>
  );
}
