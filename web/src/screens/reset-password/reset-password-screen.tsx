import '../../ui/form-fields.css';
import './reset-password.css';
import { REDIRECT_DELAY_MS, type TextKey, VerificationType } from '@keycard/contract';
import { type RefObject, useRef } from 'react';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { DoneState } from '../../ui/done-state.tsx';
import { LoadingStatus } from '../../ui/loading-status.tsx';
import { MessageText } from './page-message.tsx';
import { ResetForm } from './reset-form.tsx';
import { type CodeCheck, useCodeCheck } from './use-code-check.ts';
import { useResetForm } from './use-reset-form.ts';

export interface ResetPasswordScreenProps {
  readonly verificationType: VerificationType;
  readonly code: string;
}

/** The heading differs for an expired password (type 2) and an invitation (type 6). */
export function resetHeading(verificationType: VerificationType): TextKey {
  if (verificationType === VerificationType.PasswordExpired) return 'expiredPasswordReset';
  if (verificationType === VerificationType.VerifyUser) return 'setFirstPassword';
  return 'resetPassword';
}

/** The resource has its own intro for an expired password; an invitation shares the reset's. */
function resetIntro(verificationType: VerificationType): TextKey {
  return verificationType === VerificationType.PasswordExpired
    ? 'expiredPasswordResetIntro'
    : 'resetPasswordIntro';
}

/**
 * Below the heading before the form: the check pending, or the check that got no answer with a way
 * to try it again. A failed check is not an invalid code (only an answer says that), so the page stays
 * at its URL. Trying again takes the button away while the check runs, so focus goes to the heading
 * first rather than fall to the page's body.
 */
function Unchecked({
  check,
  heading,
}: {
  readonly check: CodeCheck;
  readonly heading: RefObject<HTMLElement | null>;
}) {
  const { t } = useText();
  const failed = check.status === 'failed' ? check : null;
  const retry = () => {
    heading.current?.focus();
    failed?.retry();
  };
  return (
    <>
      {/* Always present, so a failure is announced when it appears, again after a retry that failed. */}
      <div role="alert" className="reset__alert-region">
        {failed ? (
          <div className="reset__alert">
            <p className="reset__alert-title">{t('errorTitle')}</p>
            <p className="reset__alert-text">
              <MessageText message={failed.failure} />
            </p>
          </div>
        ) : null}
      </div>
      {failed ? (
        <button type="button" className="button reset__retry" onClick={retry}>
          {t('tryAgainLabel')}
        </button>
      ) : (
        <LoadingStatus />
      )}
    </>
  );
}

/**
 * SPEC §2 /resetPassword/{verificationType}/{code}: checks the code on load (an invalid one leads to
 * the expired-link page), then the new-password form; SPEC §4/§5/§8 for what follows, and on success
 * SPEC §4 hides the form and shows the caption until the redirect, under a heading that says the
 * password was changed. One heading stays while the check answers and the form appears, so the focus
 * it has (a move inside the SPA gives it, page-arrival.tsx) stays too.
 */
export function ResetPasswordScreen({ verificationType, code }: ResetPasswordScreenProps) {
  const { t } = useText();
  const check = useCodeCheck(verificationType, code);
  const form = useResetForm(verificationType, code);
  const heading = useRef<HTMLHeadingElement>(null);
  if (form.done) {
    return (
      <PageFrame>
        <DoneState
          heading={t('passwordChangedTitle')}
          caption={t(form.done.caption)}
          target={form.done.target}
          delayMs={REDIRECT_DELAY_MS}
        />
      </PageFrame>
    );
  }
  return (
    <PageFrame>
      <h1 ref={heading} tabIndex={-1}>
        {t(resetHeading(verificationType))}
      </h1>
      {check.status === 'valid' ? (
        <>
          <p>{t(resetIntro(verificationType))}</p>
          <ResetForm form={form} userName={check.userName} />
        </>
      ) : (
        <Unchecked check={check} heading={heading} />
      )}
    </PageFrame>
  );
}
