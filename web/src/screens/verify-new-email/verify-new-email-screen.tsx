import { type CallResponse, REDIRECT_DELAY_MS } from '@keycard/contract';
import { useMemo } from 'react';
import { api } from '../../api/api.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { readRedirectUrl } from '../../routing/query.ts';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { ERROR_PAGE, httpRedirectOr } from '../../ui/delayed-redirect.ts';
import { DoneState } from '../../ui/done-state.tsx';
import { useCallOnce } from '../../ui/use-call-once.ts';
import type { LoadState } from '../../ui/use-load.ts';

export interface VerifyNewEmailScreenProps {
  readonly code: string;
}

/** The successful answer, or null while pending or after a failure. */
function successOf(verify: LoadState<CallResponse<'verifyNewEmail'>>): CallResponse<'verifyNewEmail'> | null {
  return verify.status === 'ready' && verify.value.success ? verify.value : null;
}

/**
 * SPEC §2 /verifyNewEmail/{code}, §4: confirms the new address on load, once. Success shows a caption
 * with the first name under a heading that says the address was confirmed and, after the delay (or at
 * once, by the person's choice), goes to the returned redirectUrl when it is an http(s) URL, else to
 * /error (as for a reset, SPEC §5). Anything else shows something-went-wrong (SPEC §8),
 * under the error page's heading, as the resource has no other.
 */
export function VerifyNewEmailScreen({ code }: VerifyNewEmailScreenProps) {
  const { t } = useText();
  const { search } = useLocation();
  const verify = useCallOnce(
    () => api.post('verifyNewEmail', { verificationCode: code, redirectUrl: readRedirectUrl(search) }),
    code,
  );
  const success = successOf(verify);
  const target = useMemo(() => (success ? httpRedirectOr(success.redirectUrl, ERROR_PAGE) : null), [success]);

  if (success && target) {
    return (
      <PageFrame>
        <DoneState
          heading={t('emailConfirmedTitle')}
          caption={t('newEmailVerified', { userFirstName: success.userFirstName ?? '' })}
          target={target}
          delayMs={REDIRECT_DELAY_MS}
        />
      </PageFrame>
    );
  }
  const pending = verify.status === 'loading';

  return (
    <PageFrame>
      {/* One live region while the call runs and after a failure: the failure is read out as it replaces the progress. */}
      <div role="status" aria-atomic="true">
        <h1>{pending ? t('verifyingEmail') : t('errorTitle')}</h1>
        {pending ? null : <p>{t('somethingWentWrong')}</p>}
      </div>
    </PageFrame>
  );
}
