/** Account recovery by e-mail (DESIGN §2): domain functions, no HTTP. */
export { checkVerification } from './check-verification.ts';
export { confirmNewEmail } from './confirm-new-email.ts';
export { requestPasswordReset } from './forgot-password.ts';
export { inviteUser } from './invite-user.ts';
export type { MailingDeps, MailQueue, RecoveryDeps } from './recovery-deps.ts';
export { createRecoveryLimits } from './recovery-limits.ts';
export { requestEmailChange } from './request-email-change.ts';
export { resetPassword } from './reset-password.ts';
export { unlockAccount } from './unlock-account.ts';
export { queueUnlockMail } from './unlock-mail.ts';
