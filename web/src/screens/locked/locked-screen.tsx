import { IDENTITY_BASE } from '../../api/api.ts';
import { forgotPasswordTarget, lockedLoginTarget } from '../../routing/link-targets.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { AppLink } from '../../ui/app-link.tsx';

/** SPEC §2 /locked: locked after too many failed attempts, with links to forgot password and login. */
export function LockedScreen() {
  const { t } = useText();
  const { search } = useLocation();
  return (
    <PageFrame>
      <h1>{t('lockedAfterTooManyFailedAttempts')}</h1>
      <p>{t('lockedAfterTooManyFailedAttemptsText')}</p>
      <ul className="card__links">
        <li>
          <AppLink to={forgotPasswordTarget(search)}>{t('forgotPasswordLabel')}</AppLink>
        </li>
        <li>
          <AppLink to={lockedLoginTarget(search, IDENTITY_BASE)}>{t('goToLoginLabel')}</AppLink>
        </li>
      </ul>
    </PageFrame>
  );
}
