import { useText } from '../../text/use-text.ts';
import { PasswordInput } from '../../ui/password-input.tsx';
import { PolicyList } from './policy-list.tsx';
import { RequirementIcon } from './requirement-icons.tsx';
import { StrengthAdvice, StrengthMeter } from './strength-meter.tsx';
import { RESET_TAB } from './tab-order.ts';
import { usePasswordStrength } from './use-password-strength.ts';
import type { ResetForm as ResetFormState } from './use-reset-form.ts';

const NEW_ID = 'reset-new-password';
const CONFIRM_ID = 'reset-confirm-password';
const POLICY_ID = 'reset-password-policy';
const STRENGTH_ID = 'reset-password-strength';
const ADVICE_ID = 'reset-password-advice';
const MATCH_ID = 'reset-passwords-must-match';
const REASON_ID = 'reset-unavailable-reason';
const VIOLATION_ID = 'reset-password-refused';

/** The valid/invalid icon inside a field (SPEC §5); the field itself carries aria-invalid. */
function FieldState({ valid }: { readonly valid: boolean }) {
  return (
    <span className={`reset__state reset__state--${valid ? 'valid' : 'invalid'}`}>
      <RequirementIcon state={valid ? 'met' : 'unmet'} />
    </span>
  );
}

interface ResetFormProps {
  readonly form: ResetFormState;
  /** The account's name from the code check: a hidden username field lets managers store the password. */
  readonly userName: string | null;
}

/** SPEC §2/§5: new password, confirmation, the policy list, the strength estimate, Reset and the estimate's advice. */
export function ResetForm({ form, userName }: ResetFormProps) {
  const { t } = useText();
  const strength = usePasswordStrength(form.newPassword, userName);
  const showNew = form.validating;
  const showConfirm = form.validating && form.confirm !== '';
  const mismatch = showConfirm && !form.confirmValid;
  // The service refused the password the field holds (a common one, the address): the field says so
  // too, and points to the message, whatever the rules checked here say.
  const refused = form.violation !== null;
  const newValid = form.newPasswordValid && !refused;
  const showNewState = showNew || refused;

  return (
    <form
      className="reset"
      aria-busy={form.busy}
      onSubmit={(event) => {
        event.preventDefault();
        form.submit();
      }}
    >
      {userName ? (
        <input type="text" name="username" autoComplete="username" value={userName} readOnly hidden />
      ) : null}
      <div className="field">
        <label className="field__label" htmlFor={NEW_ID}>
          {t('newPasswordLabel')}
        </label>
        <PasswordInput
          id={NEW_ID}
          name="new-password"
          autoComplete="new-password"
          placeholder={t('newPasswordPlaceholder')}
          required
          value={form.newPassword}
          onValueChange={form.setNewPassword}
          onBlur={form.leaveNewPassword}
          aria-invalid={showNewState ? !newValid : undefined}
          aria-describedby={`${refused ? `${VIOLATION_ID} ` : ''}${POLICY_ID} ${STRENGTH_ID} ${ADVICE_ID}`}
          tabIndex={RESET_TAB.newPassword}
          toggleTabIndex={RESET_TAB.newToggle}
          adornment={showNewState ? <FieldState valid={newValid} /> : null}
        />
      </div>
      <div className="field">
        <label className="field__label" htmlFor={CONFIRM_ID}>
          {t('confirmPasswordLabel')}
        </label>
        <PasswordInput
          id={CONFIRM_ID}
          name="confirm-password"
          autoComplete="new-password"
          placeholder={t('confirmPasswordPlaceholder')}
          required
          value={form.confirm}
          onValueChange={form.setConfirm}
          aria-invalid={showConfirm ? !form.confirmValid : undefined}
          aria-describedby={mismatch ? MATCH_ID : undefined}
          tabIndex={RESET_TAB.confirm}
          toggleTabIndex={RESET_TAB.confirmToggle}
          adornment={showConfirm ? <FieldState valid={form.confirmValid} /> : null}
        />
        {/* Always present, so the hint is announced when it appears. */}
        <div aria-live="polite">
          {mismatch ? (
            <p id={MATCH_ID} className="reset__hint">
              {t('passwordsMustMatch')}
            </p>
          ) : null}
        </div>
      </div>
      <PolicyList id={POLICY_ID} password={form.newPassword} validating={form.validating} />
      <StrengthMeter id={STRENGTH_ID} feedback={strength.feedback} pending={strength.pending} />
      {/* Always present, so each violation (keyed by attempt) is announced, a repeated one too. */}
      <div role="alert" className="reset__alert-region">
        {form.violation ? (
          <p key={form.violation.attempt} id={VIOLATION_ID} className="reset__alert">
            {t(form.violation.text)}
          </p>
        ) : null}
      </div>
      <button
        type="submit"
        className="button reset__submit"
        disabled={!form.canSubmit}
        aria-describedby={form.unavailableReason ? REASON_ID : undefined}
        tabIndex={RESET_TAB.reset}
      >
        {t('resetLabel')}
      </button>
      {/* SPEC §5 keeps Reset disabled until both fields are valid and equal; this says what is missing. */}
      {form.unavailableReason ? (
        <p id={REASON_ID} className="reset__reason">
          {t(form.unavailableReason)}
        </p>
      ) : null}
      {/* After Reset: advice comes and goes with each estimate, and must not move Reset under a pointer. */}
      <StrengthAdvice id={ADVICE_ID} feedback={strength.feedback} />
    </form>
  );
}
