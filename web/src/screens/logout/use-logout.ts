import { type CallResponse, LOGOUT_REDIRECT_DELAY_MS } from '@keycard/contract';
import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/api.ts';
import { safeTarget } from '../../routing/link-targets.ts';
import { useLocation, useNavigate } from '../../routing/navigation.tsx';
import { readLogoutId } from '../../routing/query.ts';

export type LogoutState =
  | { readonly status: 'pending' }
  /** Signed out; `redirecting` when the post-logout redirect is scheduled. */
  | { readonly status: 'done'; readonly userName: string; readonly redirecting: boolean };

interface LogoutRequest {
  readonly logoutId: string;
  readonly answer: Promise<CallResponse<'logout'>>;
}

function requestLogout(logoutId: string): Promise<CallResponse<'logout'>> {
  return logoutId === '' ? Promise.reject(new Error('no logoutId')) : api.post('logout', { logoutId });
}

/**
 * SPEC §4 logout: signs out the session of the query's logoutId once, then greets the user and
 * follows the post-logout redirect after LOGOUT_REDIRECT_DELAY_MS (SPEC §9); a failure goes to /Error.
 */
export function useLogout(): LogoutState {
  const { search } = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<LogoutState>({ status: 'pending' });
  // Ending a session is not repeatable: a re-run effect (StrictMode) reuses the request it started.
  const request = useRef<LogoutRequest | null>(null);
  const logoutId = readLogoutId(search);

  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (request.current?.logoutId !== logoutId) {
      request.current = { logoutId, answer: requestLogout(logoutId) };
    }
    request.current.answer.then(
      (answer) => {
        if (!current) return;
        // Only an http(s) URL or a local path is followed, never a script URL.
        const target = safeTarget(answer.postLogoutRedirectUri ?? '');
        setState({ status: 'done', userName: answer.username, redirecting: target !== '' });
        if (target) timer = setTimeout(() => window.location.assign(target), LOGOUT_REDIRECT_DELAY_MS);
      },
      () => {
        // Replace, so Back does not return to a sign-out that cannot succeed again.
        if (current) navigate('/Error', { replace: true });
      },
    );
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [logoutId, navigate]);

  return state;
}
