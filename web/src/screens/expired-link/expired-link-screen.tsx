import { IDENTITY_BASE } from '../../api/api.ts';
import { forgotPasswordTarget, redirectLoginTarget } from '../../routing/link-targets.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { AppLink } from '../../ui/app-link.tsx';

/** SPEC §2 /expiredLink: the password link expired; links to forgot password and the RedirectUrl. */
export function ExpiredLinkScreen() {
  const { t } = useText();
  const { search } = useLocation();
  return (
    <PageFrame>
      <h1>{t('passwordLinkExpired')}</h1>
      <p>{t('passwordLinkExpiredText')}</p>
      <ul className="card__links">
        <li>
          <AppLink to={forgotPasswordTarget(search)}>{t('forgotPasswordLabel')}</AppLink>
        </li>
        <li>
          <AppLink to={redirectLoginTarget(search, IDENTITY_BASE)}>{t('goToLoginLabel')}</AppLink>
        </li>
      </ul>
    </PageFrame>
  );
}
