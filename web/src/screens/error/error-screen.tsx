import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';

/**
 * SPEC §2 /error: "We're sorry!" and "Something went wrong." SPEC §3 has no error page kind; the
 * page uses the fallback landing page's background.
 */
export function ErrorScreen() {
  const { t } = useText();
  return (
    <PageFrame pageKind="fallbackLandingPage">
      <h1>{t('errorTitle')}</h1>
      <p>{t('somethingWentWrong')}</p>
    </PageFrame>
  );
}
