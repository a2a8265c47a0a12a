import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { LoadingStatus } from '../../ui/loading-status.tsx';

/** SPEC §2 /logout (frame): the sign-out page. */
export function LogoutScreen() {
  const { t } = useText();
  return (
    <PageFrame pageKind="userLogoff">
      <h1>{t('logoff')}</h1>
      <LoadingStatus />
    </PageFrame>
  );
}
