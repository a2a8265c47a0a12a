import type { VerificationType } from '@keycard/contract';
import { useEffect } from 'react';
import { api } from '../../api/api.ts';
import { useLocation, useNavigate } from '../../routing/navigation.tsx';
import { readRedirectUrl } from '../../routing/query.ts';
import { useCallOnce } from '../../ui/use-call-once.ts';

export type CodeCheck =
  | { readonly status: 'checking' }
  /** The code may be used; `userName` names its account for password managers. */
  | { readonly status: 'valid'; readonly userName: string | null };

/** SPEC §4: where an invalid or expired code leads: /ExpiredLink?RedirectUrl={value}. */
export function expiredLinkPath(search: string): string {
  return `/ExpiredLink?RedirectUrl=${encodeURIComponent(readRedirectUrl(search))}`;
}

/**
 * SPEC §4 reset password, on load: checks the code (the check only reads, so a mail scanner that
 * opened the link first spends nothing). An invalid code, or a check that failed, leads to the
 * expired-link page; until the answer is in, the check is pending.
 */
export function useCodeCheck(verificationType: VerificationType, code: string): CodeCheck {
  const { search } = useLocation();
  const navigate = useNavigate();
  const check = useCallOnce(
    () => api.post('checkVerification', { verificationCode: code, verificationType }),
    `${verificationType}/${code}`,
  );
  const invalid = check.status === 'failed' || (check.status === 'ready' && !check.value.isValid);

  useEffect(() => {
    // Replace: Back must not return to a link that cannot be used.
    if (invalid) navigate(expiredLinkPath(search), { replace: true });
  }, [invalid, navigate, search]);

  if (check.status === 'ready' && check.value.isValid) {
    return { status: 'valid', userName: check.value.userName };
  }
  return { status: 'checking' };
}
