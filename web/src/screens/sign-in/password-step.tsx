import '../../ui/form-fields.css';
import { useText } from '../../text/use-text.ts';
import { AppLink } from '../../ui/app-link.tsx';
import { ArrowBackIcon } from '../../ui/icons.tsx';
import { PasswordInput } from '../../ui/password-input.tsx';
import { EMAIL_FIELD_ID } from './email-step.tsx';
import { PASSWORD_STEP_TAB } from './tab-order.ts';
import type { SignIn } from './use-sign-in.ts';

const PASSWORD_FIELD_ID = 'sign-in-password';

interface PasswordStepProps {
  readonly signIn: SignIn;
  /** Ids of the failed login's messages, which describe the field while they show. */
  readonly describedBy: string | undefined;
  /** The forgot-password page, linked beside the field as well as in the footer. */
  readonly forgotPasswordTo: string;
}

/**
 * SPEC §2 sign-in step 2: the e-mail read-only with a back button, the password with its show/hide
 * toggle, and Login. The account being signed in heads the form, with the back button as the way to
 * change it. The read-only e-mail stays an input with autocomplete="username" in the same form, so
 * password managers pair it with the password. The forgot-password link also sits beside the field,
 * where people look for it (SPEC keeps it in the footer too).
 */
export function PasswordStep({ signIn, describedBy, forgotPasswordTo }: PasswordStepProps) {
  const { t } = useText();
  return (
    <form
      className="sign-in__form"
      aria-busy={signIn.busy}
      onSubmit={(event) => {
        event.preventDefault();
        signIn.submitPassword();
      }}
    >
      <div className="sign-in__account">
        <label className="sign-in__account-caption" htmlFor={EMAIL_FIELD_ID}>
          {t('accountCaption')}
        </label>
        <input
          id={EMAIL_FIELD_ID}
          className="sign-in__account-email"
          type="email"
          name="username"
          autoComplete="username"
          readOnly
          value={signIn.email}
          tabIndex={-1}
        />
        <button
          type="button"
          className="button button--quiet sign-in__back"
          onClick={signIn.back}
          tabIndex={PASSWORD_STEP_TAB.back}
        >
          <ArrowBackIcon />
          {t('backLabel')}
        </button>
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
          aria-invalid={describedBy !== undefined}
          aria-describedby={describedBy}
          tabIndex={PASSWORD_STEP_TAB.password}
          toggleTabIndex={PASSWORD_STEP_TAB.toggle}
        />
        <AppLink to={forgotPasswordTo} className="sign-in__forgot" tabIndex={PASSWORD_STEP_TAB.forgot}>
          {t('forgotPasswordLabel')}
        </AppLink>
      </div>
      {/* aria-disabled, not disabled: a pressed button keeps focus while the call runs (useSignIn ignores a second submit). */}
      <button
        type="submit"
        className="button sign-in__submit"
        aria-disabled={signIn.busy}
        tabIndex={PASSWORD_STEP_TAB.login}
      >
        {t('loginLabel')}
      </button>
    </form>
  );
}
