import type { CallResponse } from '@keycard/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../../api/api.ts';
import { ApiError } from '../../api/api-error.ts';
import { safeTarget } from '../../routing/link-targets.ts';
import { useLocation, useNavigate } from '../../routing/navigation.tsx';
import { readLogoutId } from '../../routing/query.ts';
import { useLive } from '../../ui/use-live.ts';

export type LogoutState =
  | { readonly status: 'pending' }
  /**
   * The service asks before ending a session no valid ID token vouched for (a page of any site can
   * start a sign-out): "Sign out of Keycard?". `sending` while the confirmation is on its way.
   */
  | { readonly status: 'asking'; readonly sending: boolean }
  /** The person chose to stay signed in: nothing was ended. */
  | { readonly status: 'declined' }
  /**
   * Signed out; `target` is the post-logout redirect (an http(s) URL or a local path, loaded in full),
   * followed after LOGOUT_REDIRECT_DELAY_MS (SPEC §9), or null when there is none.
   */
  | { readonly status: 'done'; readonly userName: string; readonly target: string | null };

export interface Logout {
  readonly state: LogoutState;
  /** The person's "Sign out": the one request that ends a session the service asked about. */
  readonly confirm: () => void;
  /** The person's "Stay signed in". */
  readonly decline: () => void;
}

type LogoutAnswer = Promise<CallResponse<'logout'>>;

interface LogoutRequest {
  readonly logoutId: string;
  readonly answer: LogoutAnswer;
}

function requestLogout(logoutId: string): LogoutAnswer {
  return logoutId === '' ? Promise.reject(new Error('no logoutId')) : api.post('logout', { logoutId });
}

function isQuestion(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'confirmation_required';
}

/**
 * SPEC §4 logout: signs out the session of the query's logoutId once, then greets the user with the
 * post-logout redirect to follow (the screen follows it after the delay); a failure goes to /Error.
 * When the service answers confirmation_required, nothing has ended: the page asks, and only the
 * person's confirmation (a same-origin POST with the anti-forgery token) signs out.
 */
export function useLogout(): Logout {
  const { search } = useLocation();
  const navigate = useNavigate();
  const [state, setState] = useState<LogoutState>({ status: 'pending' });
  // Ending a session is not repeatable: a re-run effect (StrictMode) reuses the request it started.
  const request = useRef<LogoutRequest | null>(null);
  // The person is still on the page: a failure's move to /Error must not replace the page they went
  // to. Another logoutId's answer is another run of the effect below, which drops this one's.
  const live = useLive();
  const logoutId = readLogoutId(search);

  /** Acts on `answer` while `current` (this run of the effect, not one cleaned up since) and live. */
  const follow = useCallback(
    (answer: LogoutAnswer, onQuestion: () => void, current: () => boolean = () => true) => {
      const acting = () => current() && live();
      answer.then(
        (signedOut) => {
          if (!acting()) return;
          // Only an http(s) URL or a local path is followed, never a script URL.
          const target = safeTarget(signedOut.postLogoutRedirectUri ?? '');
          setState({ status: 'done', userName: signedOut.username, target: target || null });
        },
        (error: unknown) => {
          if (!acting()) return;
          // Replace, so Back does not return to a sign-out that cannot succeed again.
          if (isQuestion(error)) onQuestion();
          else navigate('/Error', { replace: true });
        },
      );
    },
    [navigate, live],
  );

  useEffect(() => {
    // One run's handlers act; those of a run cleaned up since (StrictMode's first) do not.
    let current = true;
    if (request.current?.logoutId !== logoutId) {
      request.current = { logoutId, answer: requestLogout(logoutId) };
    }
    follow(
      request.current.answer,
      () => setState({ status: 'asking', sending: false }),
      () => current,
    );
    return () => {
      current = false;
    };
  }, [logoutId, follow]);

  // One confirmation per visit: a double click must not send a second one.
  const confirming = useRef(false);
  const confirm = useCallback(() => {
    if (confirming.current) return;
    confirming.current = true;
    setState({ status: 'asking', sending: true });
    // A second question cannot come back for a confirmed request: treat it as the failure it is.
    follow(api.post('logout', { logoutId, confirmed: true }), () => navigate('/Error', { replace: true }));
  }, [follow, logoutId, navigate]);

  const decline = useCallback(() => {
    if (!confirming.current) setState({ status: 'declined' });
  }, []);

  return { state, confirm, decline };
}
