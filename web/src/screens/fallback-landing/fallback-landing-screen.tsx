import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';

/** SPEC §2: any other path — a welcome, why the access was wrong, and three suggestions. */
export function FallbackLandingScreen() {
  const { t } = useText();
  return (
    <PageFrame>
      <h1>{t('fallbackWelcome')}</h1>
      <p>{t('incorrectAccess')}</p>
      <ul>
        <li>{t('incorrectAccessSuggestion1', { host: window.location.host })}</li>
        <li>{t('incorrectAccessSuggestion2')}</li>
        <li>{t('incorrectAccessSuggestion3')}</li>
      </ul>
    </PageFrame>
  );
}
