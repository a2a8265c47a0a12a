import type { CallResponse, VerificationType } from '@keycard/contract';
import { useCallback, useEffect, useState } from 'react';
import { api } from '../../api/api.ts';
import { useLocation, useNavigate } from '../../routing/navigation.tsx';
import { readRedirectUrl } from '../../routing/query.ts';
import { useCallOnce } from '../../ui/use-call-once.ts';
import { useLive } from '../../ui/use-live.ts';
import { failureMessage, type PageMessage } from './page-message.tsx';

export type CodeCheck =
  | { readonly status: 'checking' }
  /** The code may be used; `userName` names its account for password managers. */
  | { readonly status: 'valid'; readonly userName: string | null }
  /** The check got no answer, so nothing is known about the code; `retry` checks it again. */
  | { readonly status: 'failed'; readonly failure: PageMessage; retry(): void };

/** SPEC §4: where an invalid or expired code leads: /ExpiredLink?RedirectUrl={value}. */
export function expiredLinkPath(search: string): string {
  return `/ExpiredLink?RedirectUrl=${encodeURIComponent(readRedirectUrl(search))}`;
}

/** A check's answer, or why there was none (the failure is kept to say what went wrong). */
type Checked = { readonly answer: CallResponse<'checkVerification'> } | { readonly failure: PageMessage };

/** SPEC §7 CheckVerification. It only reads, so checking again spends nothing. */
export function checkCode(
  verificationType: VerificationType,
  code: string,
): Promise<CallResponse<'checkVerification'>> {
  return api.post('checkVerification', { verificationCode: code, verificationType });
}

/**
 * Goes to the expired-link page in place of the reset page: Back must not return to a dead link. Only
 * while the reset page is shown: an answer that comes after the person left it (Back) leaves them
 * where they went, and does not replace that page's entry.
 */
export function useLeaveForExpiredLink(): () => void {
  const location = useLocation();
  const navigate = useNavigate();
  const live = useLive();
  // A new callback for each arrival at the page: a person who left and came back before the page
  // they went to was on show arrives anew, and an invalid code's move is tried again.
  return useCallback(() => {
    const to = expiredLinkPath(location.search);
    if (live(location) && to !== `${location.pathname}${location.search}`) navigate(to, { replace: true });
  }, [live, navigate, location]);
}

/**
 * SPEC §4 reset password, on load: checks the code (the check only reads, so a mail scanner that
 * opened the link first spends nothing). Only an answer saying the code is invalid leads to the
 * expired-link page: a check that failed (no network, a refusal) says nothing about the code, so
 * the page stays, at its URL, with a way to check again. Until the answer is in, the check is pending.
 */
export function useCodeCheck(verificationType: VerificationType, code: string): CodeCheck {
  // Each try is a new key, so useCallOnce sends the check again.
  const [tries, setTries] = useState(0);
  const leave = useLeaveForExpiredLink();
  const check = useCallOnce<Checked>(
    () =>
      checkCode(verificationType, code).then(
        (answer) => ({ answer }),
        (refusal: unknown) => ({ failure: failureMessage(refusal) }),
      ),
    `${verificationType}/${code}/${tries}`,
  );
  const checked = check.status === 'ready' ? check.value : null;
  const invalid = checked !== null && 'answer' in checked && !checked.answer.isValid;

  useEffect(() => {
    if (invalid) leave();
  }, [invalid, leave]);

  if (checked && 'answer' in checked && checked.answer.isValid) {
    return { status: 'valid', userName: checked.answer.userName };
  }
  const failure = checked && 'failure' in checked ? checked.failure : null;
  if (failure) return { status: 'failed', failure, retry: () => setTries((count) => count + 1) };
  return { status: 'checking' };
}
