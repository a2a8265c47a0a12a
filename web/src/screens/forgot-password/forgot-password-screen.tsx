import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { LoadingStatus } from '../../ui/loading-status.tsx';

/** SPEC §2 /forgotPassword (frame): the e-mail entry page. */
export function ForgotPasswordScreen() {
  const { t } = useText();
  return (
    <PageFrame pageKind="forgotPassword">
      <h1>{t('forgotPassword')}</h1>
      <LoadingStatus />
    </PageFrame>
  );
}
