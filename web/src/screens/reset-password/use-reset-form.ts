import { type CallResponse, type TextKey, VerificationType } from '@keycard/contract';
import { useRef, useState } from 'react';
import { api } from '../../api/api.ts';
import { useLocation } from '../../routing/navigation.tsx';
import { readRedirectUrl, readReturnUrl } from '../../routing/query.ts';
import { ERROR_PAGE, httpRedirectOr, type RedirectTarget } from '../../ui/delayed-redirect.ts';
import { meetsPolicy } from './password-policy.ts';
import { checkCode, useLeaveForExpiredLink } from './use-code-check.ts';

/**
 * A violation the service answered, the only message a reset shows (SPEC §8); `attempt` makes a
 * repeated one a new message. It is about the new password it refused, `password`: it stands while
 * the field holds that password, and goes once the person changes it.
 */
export interface Violation {
  readonly text: TextKey;
  readonly attempt: number;
  readonly password: string;
}

/** The password was changed: the caption to show and where the browser goes afterwards. */
export interface ResetDone {
  readonly caption: TextKey;
  readonly target: RedirectTarget;
}

export interface ResetForm {
  readonly newPassword: string;
  readonly confirm: string;
  setNewPassword(value: string): void;
  setConfirm(value: string): void;
  /** SPEC §5: validation shows once the new-password field lost focus while holding a value. */
  readonly validating: boolean;
  leaveNewPassword(): void;
  readonly newPasswordValid: boolean;
  readonly confirmValid: boolean;
  /** SPEC §5: Reset is enabled only when both fields are valid and equal. */
  readonly canSubmit: boolean;
  /** While Reset is disabled: the text saying what is still missing; null once it is enabled. */
  readonly unavailableReason: TextKey | null;
  /** A reset is in flight: further submits are ignored (the button keeps focus, so it stays enabled). */
  readonly busy: boolean;
  /** The service's refusal of the password the new-password field holds, if it refused that one. */
  readonly violation: Violation | null;
  readonly done: ResetDone | null;
  submit(): void;
}

/** SPEC §7: an expired password (type 2) sends the full ReturnUrl; every other type the RedirectUrl. */
export function resetRedirectUrl(verificationType: VerificationType, search: string): string {
  return verificationType === VerificationType.PasswordExpired
    ? readReturnUrl(search)
    : readRedirectUrl(search);
}

/** SPEC §8: the policy violation wins over the history one; an answer that is neither shows nothing. */
function violationText(answer: CallResponse<'resetPassword'>): TextKey | null {
  if (answer.policyViolation) return 'passwordPolicyViolation';
  if (answer.historyViolation) return 'passwordHistoryViolation';
  return null;
}

/** Why Reset is still disabled (SPEC §5), first things first; null when it is enabled. */
export function unavailableReason(newPassword: string, confirm: string): TextKey | null {
  if (!meetsPolicy(newPassword)) return 'resetUnavailablePolicy';
  if (confirm === '') return 'resetUnavailableConfirm';
  if (confirm !== newPassword) return 'resetUnavailableMismatch';
  return null;
}

/** SPEC §4/§5/§8: the reset form's values, validation and submission. */
export function useResetForm(verificationType: VerificationType, code: string): ResetForm {
  const { search } = useLocation();
  const leaveForExpiredLink = useLeaveForExpiredLink();
  const [newPassword, setNewPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [validating, setValidating] = useState(false);
  const [busy, setBusy] = useState(false);
  const [violation, setViolation] = useState<Violation | null>(null);
  const [done, setDone] = useState<ResetDone | null>(null);
  // `busy` lands with the next render; a second Enter can come before it.
  const inFlight = useRef(false);
  const attempts = useRef(0);

  const newPasswordValid = meetsPolicy(newPassword);
  const confirmValid = confirm !== '' && confirm === newPassword;
  const canSubmit = newPasswordValid && confirmValid;

  const succeed = (answer: CallResponse<'resetPassword'>) => {
    const expired = verificationType === VerificationType.PasswordExpired;
    const caption = expired ? 'expiredPasswordResetSuccess' : 'resetPasswordSuccess';
    setDone({ caption, target: httpRedirectOr(answer.redirectUrl, ERROR_PAGE) });
  };

  const release = () => {
    inFlight.current = false;
    setBusy(false);
  };

  /**
   * A call got no answer. SPEC §8: "A reset that is neither success nor violation shows no message",
   * whatever kept it from being either; what was typed stays, and the person can press Reset again.
   */
  const quiet = () => {
    setViolation(null);
    release();
  };

  /**
   * SPEC §8: an answer that is neither success nor violation shows no message, but it is also what
   * the service answers for a code that can no longer be used (spent, expired, or the guessing limit
   * reached), and SPEC §8 sends an invalid or expired code to the expired-link page. Checking the
   * code again (it only reads) tells the two apart.
   */
  const neither = async () => {
    let check: CallResponse<'checkVerification'>;
    try {
      check = await checkCode(verificationType, code);
    } catch {
      return quiet();
    }
    if (!check.isValid) return leaveForExpiredLink();
    quiet();
  };

  const send = async (attempt: number) => {
    const body = {
      verificationCode: code,
      verificationType,
      newPassword,
      redirectUrl: resetRedirectUrl(verificationType, search),
    };
    let answer: CallResponse<'resetPassword'>;
    try {
      answer = await api.post('resetPassword', body);
    } catch {
      return quiet();
    }
    // A success keeps the form locked: the code is spent and the page is leaving.
    if (answer.success) return succeed(answer);
    const text = violationText(answer);
    if (!text) return neither();
    setViolation({ text, attempt, password: body.newPassword });
    release();
  };

  const submit = () => {
    if (!canSubmit || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    attempts.current += 1;
    void send(attempts.current);
  };

  return {
    newPassword,
    confirm,
    setNewPassword,
    setConfirm,
    validating,
    leaveNewPassword: () => newPassword !== '' && setValidating(true),
    newPasswordValid,
    confirmValid,
    canSubmit,
    unavailableReason: unavailableReason(newPassword, confirm),
    busy,
    violation: violation?.password === newPassword ? violation : null,
    done,
    submit,
  };
}
