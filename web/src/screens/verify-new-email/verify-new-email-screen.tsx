import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { LoadingStatus } from '../../ui/loading-status.tsx';

export interface VerifyNewEmailScreenProps {
  readonly code: string;
}

/** SPEC §2 /verifyNewEmail/{code} (frame): the new e-mail address is being confirmed. */
export function VerifyNewEmailScreen(_props: VerifyNewEmailScreenProps) {
  const { t } = useText();
  return (
    <PageFrame pageKind="emailVerification">
      <h1>{t('verifyingEmail')}</h1>
      <LoadingStatus />
    </PageFrame>
  );
}
