import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';

/** SPEC §2 /error: "We're sorry!" and "Something went wrong." */
export function ErrorScreen() {
  const { t } = useText();
  return (
    <PageFrame>
      <h1>{t('errorTitle')}</h1>
      <p>{t('somethingWentWrong')}</p>
    </PageFrame>
  );
}
