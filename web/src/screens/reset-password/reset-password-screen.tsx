import '../../ui/form-fields.css';
import './reset-password.css';
import { REDIRECT_DELAY_MS, type TextKey, VerificationType } from '@keycard/contract';
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

interface ValidCodeProps extends ResetPasswordScreenProps {
  readonly userName: string | null;
}

/**
 * The form for a code that passed the check, then its success: SPEC §4 hides the form and shows the
 * caption until the redirect, under a heading that says the password was changed.
 */
function ValidCode({ verificationType, code, userName }: ValidCodeProps) {
  const { t } = useText();
  const form = useResetForm(verificationType, code);
  if (form.done) {
    return (
      <DoneState
        heading={t('passwordChangedTitle')}
        caption={t(form.done.caption)}
        target={form.done.target}
        delayMs={REDIRECT_DELAY_MS}
      />
    );
  }
  return (
    <>
      <h1>{t(resetHeading(verificationType))}</h1>
      <p>{t(resetIntro(verificationType))}</p>
      <ResetForm form={form} userName={userName} />
    </>
  );
}

/**
 * Before the form: the check pending, or the check that got no answer with a way to try it again.
 * A failed check is not an invalid code (only an answer says that), so the page stays at its URL.
 */
function Unchecked({
  verificationType,
  check,
}: {
  readonly verificationType: VerificationType;
  readonly check: CodeCheck;
}) {
  const { t } = useText();
  const failed = check.status === 'failed' ? check : null;
  return (
    <>
      <h1>{t(resetHeading(verificationType))}</h1>
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
        <button type="button" className="button reset__retry" onClick={failed.retry}>
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
 * the expired-link page), then the new-password form; SPEC §4/§5/§8 for what follows.
 */
export function ResetPasswordScreen({ verificationType, code }: ResetPasswordScreenProps) {
  const check = useCodeCheck(verificationType, code);
  return (
    <PageFrame>
      {check.status === 'valid' ? (
        <ValidCode verificationType={verificationType} code={code} userName={check.userName} />
      ) : (
        <Unchecked verificationType={verificationType} check={check} />
      )}
    </PageFrame>
  );
}
