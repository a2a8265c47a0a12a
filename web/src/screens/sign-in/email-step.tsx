import '../../ui/form-fields.css';
import { useText } from '../../text/use-text.ts';
import { EMAIL_STEP_TAB } from './tab-order.ts';
import type { SignIn } from './use-sign-in.ts';

/** The e-mail field's id; step 2's read-only copy uses it too, so the label and managers pair them. */
export const EMAIL_FIELD_ID = 'sign-in-email';

/**
 * SPEC §2 sign-in step 1: the e-mail field (Enter submits) and Next. While CheckUsername runs the field
 * is read-only (it keeps focus, unlike a disabled one): the address being checked is the one signed in.
 */
export function EmailStep({ signIn }: { readonly signIn: SignIn }) {
  const { t } = useText();
  return (
    <form
      className="sign-in__form"
      aria-busy={signIn.busy}
      onSubmit={(event) => {
        event.preventDefault();
        signIn.submitEmail();
      }}
    >
      <div className="field">
        <label className="field__label" htmlFor={EMAIL_FIELD_ID}>
          {t('emailLabel')}
        </label>
        <input
          ref={signIn.emailRef}
          id={EMAIL_FIELD_ID}
          className="field__input"
          type="email"
          name="username"
          autoComplete="username"
          placeholder={t('emailPlaceholder')}
          required
          readOnly={signIn.busy}
          value={signIn.email}
          onChange={(event) => signIn.setEmail(event.currentTarget.value)}
          tabIndex={EMAIL_STEP_TAB.email}
        />
      </div>
      {/* aria-disabled, not disabled: a pressed button keeps focus while the call runs (useSignIn ignores a second submit). */}
      <button
        type="submit"
        className="button sign-in__submit"
        aria-disabled={signIn.busy}
        tabIndex={EMAIL_STEP_TAB.next}
      >
        {t('nextLabel')}
      </button>
    </form>
  );
}
