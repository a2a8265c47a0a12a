import './sign-in.css';
import { forgotPasswordTarget } from '../../routing/link-targets.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { readProduct, readReturnUrl } from '../../routing/query.ts';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { waitDuration } from '../../text/wait-duration.ts';
import { AppLink } from '../../ui/app-link.tsx';
import { EmailStep } from './email-step.tsx';
import { PasswordStep } from './password-step.tsx';
import { useSignIn } from './use-sign-in.ts';

const ALERT_ID = 'sign-in-wrong-password';
const WAIT_ID = 'sign-in-wait';
const EXPIRED_ID = 'sign-in-expired';

/** Ids of the failed login's messages: the header, then each explanation that shows with it. */
function messageIds(waitSeconds: number | null, expired: boolean): string {
  return [ALERT_ID, ...(waitSeconds === null ? [] : [WAIT_ID]), ...(expired ? [EXPIRED_ID] : [])].join(' ');
}

/**
 * SPEC §2/§4 sign-in page: a welcome for the ReturnUrl's product, the e-mail step then the password
 * step, and the forgot-password link in the footer. After a failed login the wrong-password header
 * shows and the page kind (so the background) changes (SPEC §8); a login refused for too many
 * requests also says how long to wait, and one refused because the sign-in expired says to start
 * again from the application (no password can succeed on this page any more).
 */
export function SignInScreen() {
  const { t, language } = useText();
  const { search } = useLocation();
  const signIn = useSignIn();
  const product = readProduct(readReturnUrl(search), `${t('productNamePart1')}${t('productNamePart2')}`);
  const wrong = signIn.failures > 0;
  const describedBy = messageIds(signIn.waitSeconds, signIn.expired);

  return (
    <PageFrame
      pageKind={wrong ? 'wrongPasswordUnknownUser' : undefined}
      footerLinks={<AppLink to={forgotPasswordTarget(search)}>{t('forgotPasswordLabel')}</AppLink>}
    >
      <h1>{t('loginWelcome', { product })}</h1>
      {/* Always present, so each new header (keyed by attempt) is announced, a repeat one too.
          It empties while the next attempt runs: the message belongs to the last one. */}
      <div role="alert" className="sign-in__alert-region">
        {signIn.showError ? (
          <h2
            key={signIn.failures}
            ref={signIn.errorRef}
            id={ALERT_ID}
            className="sign-in__alert"
            tabIndex={-1}
          >
            {t('wrongPasswordOrUnknownUser')}
          </h2>
        ) : null}
        {signIn.showError && signIn.waitSeconds !== null ? (
          <p key={`wait-${signIn.failures}`} id={WAIT_ID} className="sign-in__wait">
            {t('tooManyRequests', { wait: waitDuration(signIn.waitSeconds, language) })}
          </p>
        ) : null}
        {signIn.showError && signIn.expired ? (
          <p key={`expired-${signIn.failures}`} id={EXPIRED_ID} className="sign-in__expired">
            {t('signInExpired')}
          </p>
        ) : null}
      </div>
      {signIn.step === 'email' ? (
        <>
          <p>{t('loginIntro')}</p>
          <EmailStep signIn={signIn} />
        </>
      ) : (
        <PasswordStep
          signIn={signIn}
          describedBy={signIn.showError ? describedBy : undefined}
          forgotPasswordTo={forgotPasswordTarget(search)}
        />
      )}
      <p role="status" className="loading-status sign-in__status">
        {signIn.busy ? t('signingIn') : ''}
      </p>
    </PageFrame>
  );
}
