import './logout-screen.css';
import { LOGOUT_REDIRECT_DELAY_MS } from '@keycard/contract';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import type { RedirectTarget } from '../../ui/delayed-redirect.ts';
import { DoneState } from '../../ui/done-state.tsx';
import { type LogoutState, useLogout } from './use-logout.ts';

function isLoading(state: LogoutState): boolean {
  return state.status === 'pending' || (state.status === 'asking' && state.sending);
}

/** The post-logout redirect, loaded in full: a local path may be a page of the service, not the SPA. */
function useLogoutTarget(state: LogoutState): RedirectTarget | null {
  const url = state.status === 'done' ? state.target : null;
  return useMemo(() => (url ? { kind: 'leave', url } : null), [url]);
}

/**
 * SPEC §2 /logout: signs the user out and says goodbye by name; SPEC §4 for what follows. A sign-out
 * the service will not end unasked (no valid ID token vouched for it) first shows the question
 * "Sign out of Keycard?" with two buttons; declining leaves the session as it was. Signed out, the
 * page says so and, with a post-logout redirect, offers to go there now while it counts down the delay.
 */
export function LogoutScreen() {
  const { t } = useText();
  const { state, confirm, decline } = useLogout();
  const heading = useRef<HTMLHeadingElement>(null);
  const asked = useRef(false);
  const target = useLogoutTarget(state);

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
            {/* aria-disabled, not disabled: the pressed button keeps focus while the sign-out is sent (useLogout ignores what follows). */}
            <button type="button" className="button" onClick={confirm} aria-disabled={state.sending}>
              {t('logoutConfirmLabel')}
            </button>
            <button
              type="button"
              className="button button--quiet"
              onClick={decline}
              aria-disabled={state.sending}
            >
              {t('logoutDeclineLabel')}
            </button>
          </div>
        </>
      ) : state.status === 'declined' ? (
        <h1 ref={heading} tabIndex={-1}>
          {t('logoutDeclined')}
        </h1>
      ) : state.status === 'done' ? (
        <DoneState
          heading={t('logoff')}
          // A browser that was not signed in is told so without a name (oidc/logout.ts showSignedOut).
          caption={
            state.userName === '' ? t('logoffDone') : t('logoffGreeting', { userName: state.userName })
          }
          target={target}
          delayMs={LOGOUT_REDIRECT_DELAY_MS}
        />
      ) : (
        <h1 ref={heading} tabIndex={-1}>
          {t('logoff')}
        </h1>
      )}
      {/* One live region for the whole visit, so each change of its text is announced. */}
      <p role="status" className="loading-status">
        {isLoading(state) ? t('loading') : ''}
      </p>
    </PageFrame>
  );
}
