import { Link, useLocation } from 'react-router';
import { forgotPasswordTarget } from '../../routing/link-targets.ts';
import { readProduct, readReturnUrl } from '../../routing/query.ts';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { LoadingStatus } from '../../ui/loading-status.tsx';

/** SPEC §2 sign-in page (frame): welcome for the product of the ReturnUrl, rotating background. */
export function SignInScreen() {
  const { t } = useText();
  const { search } = useLocation();
  const product = readProduct(readReturnUrl(search));
  return (
    <PageFrame
      pageKind="unknownUser"
      footerLinks={<Link to={forgotPasswordTarget(search)}>{t('forgotPasswordLabel')}</Link>}
    >
      <h1>{t('loginWelcome', { product })}</h1>
      <LoadingStatus />
    </PageFrame>
  );
}
