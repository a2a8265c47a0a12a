import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { useLogout } from './use-logout.ts';

/** SPEC §2 /logout: signs the user out and says goodbye by name; SPEC §4 for what follows. */
export function LogoutScreen() {
  const { t } = useText();
  const state = useLogout();
  const announcement = state.status === 'pending' ? t('loading') : state.redirecting ? t('redirecting') : '';

  return (
    <PageFrame>
      <h1>{t('logoff')}</h1>
      {state.status === 'done' ? <p>{t('logoffGreeting', { userName: state.userName })}</p> : null}
      {/* One live region for the whole visit, so each change of its text is announced. */}
      <p role="status" className="loading-status">
        {announcement}
      </p>
    </PageFrame>
  );
}
