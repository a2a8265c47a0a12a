import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { LoadingStatus } from '../../ui/loading-status.tsx';

export interface UnlockScreenProps {
  readonly code: string;
}

/** SPEC §2 /unlock/{code} (frame): the account is being unlocked. */
export function UnlockScreen(_props: UnlockScreenProps) {
  const { t } = useText();
  return (
    <PageFrame pageKind="unlock">
      <h1>{t('unlockInProgress')}</h1>
      <LoadingStatus />
    </PageFrame>
  );
}
