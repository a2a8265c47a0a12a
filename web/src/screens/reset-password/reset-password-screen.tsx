import { type TextKey, VerificationType } from '@keycard/contract';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { LoadingStatus } from '../../ui/loading-status.tsx';

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

/** SPEC §2 /resetPassword/{verificationType}/{code} (frame). */
export function ResetPasswordScreen({ verificationType }: ResetPasswordScreenProps) {
  const { t } = useText();
  return (
    <PageFrame pageKind="resetPassword">
      <h1>{t(resetHeading(verificationType))}</h1>
      <LoadingStatus />
    </PageFrame>
  );
}
