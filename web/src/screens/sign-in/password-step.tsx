import '../../ui/form-fields.css';
import { useText } from '../../text/use-text.ts';
import { ArrowBackIcon } from '../../ui/icons.tsx';
import { PasswordInput } from '../../ui/password-input.tsx';
import { EMAIL_FIELD_ID } from './email-step.tsx';
import { PASSWORD_STEP_TAB } from './tab-order.ts';
import type { SignIn } from './use-sign-in.ts';

const PASSWORD_FIELD_ID = 'sign-in-password';

interface PasswordStepProps {
  readonly signIn: SignIn;
  /** Id of the wrong-password header, which describes the field while it shows. */
  readonly alertId: string;
}

/**
 * SPEC §2 sign-in step 2: the e-mail read-only with a back button, the password with its show/hide
 * toggle, and Login. The read-only e-mail stays an input with autocomplete="username" in the same
 * form, so password managers pair it with the password.
 */
export function PasswordStep({ signIn, alertId }: PasswordStepProps) {
  const { t } = useText();
  const wrong = signIn.failures > 0;
  return (
    <form
      className="sign-in__form"
      aria-busy={signIn.busy}
      onSubmit={(event) => {
        event.preventDefault();
        signIn.submitPassword();
      }}
    >
      <div className="field">
        <label className="field__label" htmlFor={EMAIL_FIELD_ID}>
          {t('emailLabel')}
        </label>
        <div className="sign-in__identity">
          <button
            type="button"
            className="button button--quiet sign-in__back"
            aria-label={t('backLabel')}
            onClick={signIn.back}
            tabIndex={PASSWORD_STEP_TAB.back}
          >
            <ArrowBackIcon />
          </button>
          <input
            id={EMAIL_FIELD_ID}
            className="field__input"
            type="email"
            name="username"
            autoComplete="username"
            readOnly
            value={signIn.email}
            tabIndex={-1}
          />
        </div>
      </div>
      <div className="field">
        <label className="field__label" htmlFor={PASSWORD_FIELD_ID}>
          {t('passwordLabel')}
        </label>
        <PasswordInput
          id={PASSWORD_FIELD_ID}
          name="password"
          autoComplete="current-password"
          placeholder={t('passwordPlaceholder')}
          required
          value={signIn.password}
          onValueChange={signIn.setPassword}
          inputRef={signIn.passwordRef}
          aria-invalid={wrong}
          aria-describedby={wrong ? alertId : undefined}
          tabIndex={PASSWORD_STEP_TAB.password}
          toggleTabIndex={PASSWORD_STEP_TAB.toggle}
        />
      </div>
      <button
        type="submit"
        className="button sign-in__submit"
        disabled={signIn.busy}
        tabIndex={PASSWORD_STEP_TAB.login}
      >
        {t('loginLabel')}
      </button>
    </form>
  );
}
