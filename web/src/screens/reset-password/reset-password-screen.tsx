import '../../ui/form-fields.css';
import './reset-password.css';
import { type TextKey, VerificationType } from '@keycard/contract';
import { useLayoutEffect, useRef } from 'react';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { useDelayedRedirect } from '../../ui/delayed-redirect.ts';
import { LoadingStatus } from '../../ui/loading-status.tsx';
import { ResetForm } from './reset-form.tsx';
import { useCodeCheck } from './use-code-check.ts';
import { type ResetDone, useResetForm } from './use-reset-form.ts';

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

/** SPEC §4: after a success the form is hidden and the caption shows until the redirect. */
function ResetSuccess({ done }: { readonly done: ResetDone }) {
  const { t } = useText();
  const captionRef = useRef<HTMLParagraphElement>(null);
  // The form, and the focus with it, is gone: the caption takes focus so it is read out.
  useLayoutEffect(() => captionRef.current?.focus(), []);
  return (
    <>
      <p ref={captionRef} tabIndex={-1} className="reset__done">
        {t(done.caption)}
      </p>
      <p role="status" className="loading-status">
        {t('redirecting')}
      </p>
    </>
  );
}

interface ValidCodeProps extends ResetPasswordScreenProps {
  readonly userName: string | null;
}

/** The form for a code that passed the check, then its success. */
function ValidCode({ verificationType, code, userName }: ValidCodeProps) {
  const { t } = useText();
  const form = useResetForm(verificationType, code);
  useDelayedRedirect(form.done?.target ?? null);
  if (form.done) return <ResetSuccess done={form.done} />;
  return (
    <>
      <p>{t(resetIntro(verificationType))}</p>
      <ResetForm form={form} userName={userName} />
    </>
  );
}

/**
 * SPEC §2 /resetPassword/{verificationType}/{code}: checks the code on load (an invalid one leads to
 * the expired-link page), then the new-password form; SPEC §4/§5/§8 for what follows.
 */
export function ResetPasswordScreen({ verificationType, code }: ResetPasswordScreenProps) {
  const { t } = useText();
  const check = useCodeCheck(verificationType, code);
  return (
    <PageFrame>
      <h1>{t(resetHeading(verificationType))}</h1>
      {check.status === 'valid' ? (
        <ValidCode verificationType={verificationType} code={code} userName={check.userName} />
      ) : (
        <LoadingStatus />
      )}
    </PageFrame>
  );
}
