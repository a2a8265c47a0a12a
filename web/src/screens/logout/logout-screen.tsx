import './logout-screen.css';
import { useLayoutEffect, useRef } from 'react';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { type LogoutState, useLogout } from './use-logout.ts';

function announcementKey(state: LogoutState): 'loading' | 'redirecting' | null {
  if (state.status === 'pending' || (state.status === 'asking' && state.sending)) return 'loading';
  return state.status === 'done' && state.redirecting ? 'redirecting' : null;
}

/**
 * SPEC §2 /logout: signs the user out and says goodbye by name; SPEC §4 for what follows. A sign-out
 * the service will not end unasked (no valid ID token vouched for it) first shows the question
 * "Sign out of Keycard?" with two buttons; declining leaves the session as it was.
 */
export function LogoutScreen() {
  const { t } = useText();
  const { state, confirm, decline } = useLogout();
  const heading = useRef<HTMLHeadingElement>(null);
  const asked = useRef(false);
  const announcement = announcementKey(state);

  // Once the question has appeared, each new state replaces what had focus (a button): its heading
  // takes focus, so it is read out and the keyboard starts from there.
  useLayoutEffect(() => {
    if (state.status === 'asking') asked.current = true;
    if (asked.current) heading.current?.focus();
  }, [state.status]);

  return (
    <PageFrame>
      {state.status === 'asking' ? (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t('logoutConfirmTitle')}
          </h1>
          <p>{t('logoutConfirmText')}</p>
          <div className="logout__answers">
            <button type="button" className="button" onClick={confirm} disabled={state.sending}>
              {t('logoutConfirmLabel')}
            </button>
            <button type="button" className="button button--quiet" onClick={decline} disabled={state.sending}>
              {t('logoutDeclineLabel')}
            </button>
          </div>
        </>
      ) : state.status === 'declined' ? (
        <h1 ref={heading} tabIndex={-1}>
          {t('logoutDeclined')}
        </h1>
      ) : (
        <>
          <h1 ref={heading} tabIndex={-1}>
            {t('logoff')}
          </h1>
          {state.status === 'done' ? <p>{t('logoffGreeting', { userName: state.userName })}</p> : null}
        </>
      )}
      {/* One live region for the whole visit, so each change of its text is announced. */}
      <p role="status" className="loading-status">
        {announcement === null ? '' : t(announcement)}
      </p>
    </PageFrame>
  );
}
