import type { CallResponse, TextKey } from '@keycard/contract';
import { useMemo } from 'react';
import { api } from '../../api/api.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { readRedirectUrl } from '../../routing/query.ts';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { ERROR_PAGE, httpRedirectOr, useDelayedRedirect } from '../../ui/delayed-redirect.ts';
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
 * with the first name and, after the delay, goes to the returned redirectUrl when it is an http(s)
 * URL, else to /error (as for a reset, SPEC §5). Anything else shows something-went-wrong (SPEC §8),
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
  useDelayedRedirect(target);

  let heading: string;
  let message: TextKey | null = null;
  if (success) {
    heading = t('newEmailVerified', { userFirstName: success.userFirstName ?? '' });
    message = 'redirecting';
  } else if (verify.status === 'loading') {
    heading = t('verifyingEmail');
  } else {
    heading = t('errorTitle');
    message = 'somethingWentWrong';
  }

  return (
    <PageFrame>
      {/* One live region for the whole visit: the outcome is read out as it replaces the progress. */}
      <div role="status" aria-atomic="true">
        <h1>{heading}</h1>
        {message ? <p>{t(message)}</p> : null}
      </div>
    </PageFrame>
  );
}
