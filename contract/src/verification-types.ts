/** Verification types of SPEC §3, by their wire numbers. */
export const VerificationType = {
  None: 0,
  PasswordReset: 1,
  PasswordExpired: 2,
  LockedAfterTooManyFailedAttempts: 3,
  ContactEmailChanged: 4,
  UserNotFound: 5,
  VerifyUser: 6,
  EmailChanged: 7,
} as const;

export type VerificationType = (typeof VerificationType)[keyof typeof VerificationType];

const verificationTypeNumbers = Object.values(VerificationType) as VerificationType[];

export function isVerificationType(n: number): n is VerificationType {
  return (verificationTypeNumbers as number[]).includes(n);
}

/** Every verification type number, in wire order. */
export const VERIFICATION_TYPE_NUMBERS: readonly VerificationType[] = verificationTypeNumbers;
