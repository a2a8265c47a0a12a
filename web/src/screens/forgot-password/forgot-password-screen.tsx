import '../../ui/form-fields.css';
import './forgot-password.css';
import { useLayoutEffect, useRef, useState } from 'react';
import { api, IDENTITY_BASE } from '../../api/api.ts';
import { lockedLoginTarget } from '../../routing/link-targets.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { readReturnUrl } from '../../routing/query.ts';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { AppLink } from '../../ui/app-link.tsx';

const EMAIL_FIELD_ID = 'forgot-password-email';

/** SPEC §2: tab order indices on the form, in visual order (the links after it keep index 0). */
const TAB = { email: 1, send: 2 } as const;

/**
 * SPEC §2 /forgotPassword: the e-mail form, then the thank-you state. SPEC §4: the thank-you shows
 * on the click, without waiting for the service, whose answer is identical for every address
 * anyway (DESIGN §2) — so nothing the page shows can tell whether an account exists.
 */
export function ForgotPasswordScreen() {
  const { t } = useText();
  const { search } = useLocation();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const thanksRef = useRef<HTMLHeadingElement>(null);

  // The form (and the focused button) is gone: the new heading takes focus, so it is read out.
  useLayoutEffect(() => {
    if (sent) thanksRef.current?.focus();
  }, [sent]);

  const send = () => {
    if (sent || email.trim() === '') return;
    setSent(true);
    // The answer is not read (SPEC §7); a failure changes nothing the user could act on.
    const body = { email, returnUrl: readReturnUrl(search), locationSearch: search };
    api.post('forgotPassword', body).catch(() => undefined);
  };

  return (
    <PageFrame>
      {sent ? (
        <>
          <h1 ref={thanksRef} tabIndex={-1} className="forgot-password__thanks">
            {t('thankYou')}
          </h1>
          <p>{t('checkYourEmail')}</p>
        </>
      ) : (
        <>
          <h1>{t('forgotPassword')}</h1>
          <p>{t('forgotPasswordIntro')}</p>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              send();
            }}
          >
            <div className="field">
              <label className="field__label" htmlFor={EMAIL_FIELD_ID}>
                {t('emailLabel')}
              </label>
              <input
                id={EMAIL_FIELD_ID}
                className="field__input"
                type="email"
                name="username"
                autoComplete="username"
                placeholder={t('emailPlaceholder')}
                required
                value={email}
                onChange={(event) => setEmail(event.currentTarget.value)}
                tabIndex={TAB.email}
              />
            </div>
            <button type="submit" className="button forgot-password__send" tabIndex={TAB.send}>
              {t('sendLabel')}
            </button>
          </form>
        </>
      )}
      <ul className="card__links">
        <li>
          <AppLink to={lockedLoginTarget(search, IDENTITY_BASE)}>{t('rememberedPasswordLabel')}</AppLink>
        </li>
      </ul>
    </PageFrame>
  );
}
