import { type CallResponse, REDIRECT_DELAY_MS, type TextKey } from '@keycard/contract';
import { useMemo } from 'react';
import { api, IDENTITY_BASE } from '../../api/api.ts';
import { forgotPasswordTarget, lockedLoginTarget } from '../../routing/link-targets.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { readRedirectUrl } from '../../routing/query.ts';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { AppLink } from '../../ui/app-link.tsx';
import { httpRedirectOr, redirectTo } from '../../ui/delayed-redirect.ts';
import { DoneState } from '../../ui/done-state.tsx';
import { useCallOnce } from '../../ui/use-call-once.ts';
import type { LoadState } from '../../ui/use-load.ts';

export interface UnlockScreenProps {
  readonly code: string;
}

type UnlockOutcome = 'pending' | 'success' | 'linkExpired' | 'failed';

/** SPEC §4/§8: success, an expired link, or anything else (a failed call too) as something wrong. */
function outcomeOf(unlock: LoadState<CallResponse<'unlockUser'>>): UnlockOutcome {
  if (unlock.status === 'loading') return 'pending';
  if (unlock.status === 'failed') return 'failed';
  if (unlock.value.success) return 'success';
  return unlock.value.linkExpired ? 'linkExpired' : 'failed';
}

/**
 * Headings and messages per outcome. The resource has no heading of its own for an expired unlock
 * link or a failed unlock; they use the expired-link page's and the error page's.
 */
const HEADING: Record<Exclude<UnlockOutcome, 'success'>, TextKey> = {
  pending: 'unlockInProgress',
  linkExpired: 'passwordLinkExpired',
  failed: 'errorTitle',
};
const MESSAGE: Record<Exclude<UnlockOutcome, 'success'>, TextKey | null> = {
  pending: null,
  linkExpired: 'unlockLinkExpired',
  failed: 'somethingWentWrong',
};

/**
 * SPEC §2 /unlock/{code}, §4: unlocks the account on load, once. Success shows a header with the user
 * name and, after the delay (or at once, by the person's choice), goes to the answer's redirectUrl
 * when it is an http(s) URL, else to the login target (the sign-in page with the ReturnUrl, the
 * RedirectUrl, or /).
 */
export function UnlockScreen({ code }: UnlockScreenProps) {
  const { t } = useText();
  const { search } = useLocation();
  const unlock = useCallOnce(
    () => api.post('unlockUser', { verificationCode: code, redirectUrl: readRedirectUrl(search) }),
    code,
  );
  const outcome = outcomeOf(unlock);
  const loginTarget = lockedLoginTarget(search, IDENTITY_BASE);
  const answer = unlock.status === 'ready' ? unlock.value : null;
  const target = useMemo(
    () => (answer?.success ? httpRedirectOr(answer.redirectUrl, redirectTo(loginTarget)) : null),
    [answer, loginTarget],
  );

  if (outcome === 'success') {
    return (
      <PageFrame>
        <DoneState
          heading={t('unlockSuccessful', { userName: answer?.userName ?? '' })}
          caption={null}
          target={target}
          delayMs={REDIRECT_DELAY_MS}
        />
      </PageFrame>
    );
  }
  const message = MESSAGE[outcome];

  return (
    <PageFrame>
      {/* One live region while the unlock runs and after a failure: the outcome is read out as it replaces the progress. */}
      <div role="status" aria-atomic="true">
        <h1>{t(HEADING[outcome])}</h1>
        {message ? <p>{t(message)}</p> : null}
      </div>
      {outcome === 'linkExpired' ? (
        <ul className="card__links">
          <li>
            <AppLink to={forgotPasswordTarget(search)}>{t('forgotPasswordLabel')}</AppLink>
          </li>
          <li>
            <AppLink to={loginTarget}>{t('goToLoginLabel')}</AppLink>
          </li>
        </ul>
      ) : null}
    </PageFrame>
  );
}
