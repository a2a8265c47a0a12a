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
  const live = useLive();
  const logoutId = readLogoutId(search);

  /**
   * The move to /Error, in place of the page (Back does not return to a sign-out that cannot succeed
   * again); only while the person is still on the page, so it never replaces the page they went to.
   */
  const toErrorPage = useCallback(() => {
    if (live()) navigate('/Error', { replace: true });
  }, [live, navigate]);

  /**
   * Acts on `answer` while `current`: it answers the run of the effect or the confirmation of this
   * logoutId, not one cleaned up since (StrictMode's first run) or one the page has moved on from
   * (another logoutId). Showing the answer moves no one; what moves is checked where it moves.
   */
  const follow = useCallback(
    (answer: LogoutAnswer, onQuestion: () => void, current: () => boolean) => {
      answer.then(
        (signedOut) => {
          if (!current()) return;
          // Only an http(s) URL or a local path is followed, never a script URL.
          const target = safeTarget(signedOut.postLogoutRedirectUri ?? '');
          setState({ status: 'done', userName: signedOut.username, target: target || null });
        },
        (error: unknown) => {
          if (!current()) return;
          if (isQuestion(error)) onQuestion();
          else toErrorPage();
        },
      );
    },
    [toErrorPage],
  );

  useEffect(() => {
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
    follow(
      api.post('logout', { logoutId, confirmed: true }),
      toErrorPage,
      () => request.current?.logoutId === logoutId,
    );
  }, [follow, logoutId, toErrorPage]);

  const decline = useCallback(() => {
    if (!confirming.current) setState({ status: 'declined' });
  }, []);

  return { state, confirm, decline };
}
