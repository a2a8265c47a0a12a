import type { LanguageTexts } from '@keycard/contract';

/**
 * English texts of the resource (SPEC §1). Placeholders are filled by the SPA (see text-keys.ts).
 * Security wording: failed sign-in and forgot-password answers never say whether an account exists.
 */
export const en: LanguageTexts = {
  // Sign-in
  loginWelcome: 'Welcome to {product}',
  loginIntro: 'Sign in with your e-mail address.',
  wrongPasswordOrUnknownUser: 'The e-mail address or password is incorrect. Please try again.',
  emailPlaceholder: 'E-mail address',
  emailLabel: 'E-mail address',
  passwordPlaceholder: 'Password',
  newPasswordPlaceholder: 'New password',
  passwordLabel: 'Password',
  confirmPasswordPlaceholder: 'Repeat new password',
  confirmPasswordLabel: 'Repeat new password',
  newPasswordLabel: 'New password',
  showPassword: 'Show password',
  hidePassword: 'Hide password',
  nextLabel: 'Next',
  loginLabel: 'Sign in',
  backLabel: 'Back to e-mail address',
  accountCaption: 'Signing in as',
  forgotPasswordLabel: 'Forgot your password?',
  rememberedPasswordLabel: 'Remembered your password? Sign in',
  goToLoginLabel: 'Go to sign-in',
  resetLabel: 'Save password',
  sendLabel: 'Send link',
  signingIn: 'Signing in…',
  signInExpired: 'This sign-in has expired. Please go back to the application and sign in again from there.',
  redirecting: 'You will be redirected in a moment…',
  continueNow: 'Continue now',
  redirectCountdown: 'Continuing in {seconds} s',
  redirectAnnouncement: 'You will be taken on automatically in {seconds} seconds, or continue now.',
  // Sign-out
  logoff: 'Signed out',
  logoffGreeting: 'Goodbye, {userName}. You have been signed out successfully.',
  logoffDone: 'You are signed out.',
  logoutConfirmTitle: 'Sign out of Keycard?',
  logoutConfirmText:
    'A website asked to sign you out. You stay signed in unless you confirm that you want to sign out.',
  logoutConfirmLabel: 'Sign out',
  logoutDeclineLabel: 'Stay signed in',
  logoutDeclined: 'You are still signed in.',
  // Forgot / reset password
  forgotPassword: 'Forgot your password?',
  forgotPasswordIntro:
    'Enter the e-mail address of your account and we will send you a link to choose a new password.',
  thankYou: 'Thank you',
  checkYourEmail:
    'If an account exists for this address, we have sent it an e-mail with a link to reset your password. Please check your inbox and your spam folder. The link is valid for a limited time only.',
  resetPassword: 'Choose a new password',
  resetPasswordIntro: 'Enter your new password twice. It must meet all of the requirements below.',
  expiredPasswordReset: 'Your password has expired',
  expiredPasswordResetIntro:
    'For your security, please choose a new password before you continue. It must meet all of the requirements below.',
  setFirstPassword: 'Set your password',
  passwordChangedTitle: 'Password changed',
  resetPasswordSuccess: 'Your new password has been saved. You can now use it to sign in.',
  expiredPasswordResetSuccess:
    'Your new password has been saved. Please sign in again with your new password.',
  passwordPolicyHeading: 'Your password must contain:',
  passwordLengthRequirement: 'At least {length} characters',
  passwordDigitRequirement: 'At least one digit (0–9)',
  passwordLowercaseRequirement: 'At least one lowercase letter',
  passwordUppercaseRequirement: 'At least one uppercase letter',
  passwordSpecialRequirement:
    'At least one symbol or punctuation mark, such as ! ? # or % (a space does not count)',
  passwordsMustMatch: 'The two passwords must match.',
  requirementMet: 'Requirement met',
  requirementNotMet: 'Requirement not met',
  passwordRequirementsMissing: 'Still missing: {requirements}.',
  passwordRequirementsAllMet: 'All requirements are met.',
  resetUnavailablePolicy: 'You can save once the new password meets every requirement.',
  resetUnavailableConfirm:
    'You can save once you have entered the new password again in the confirmation field.',
  resetUnavailableMismatch: 'You can save once both passwords match.',
  passwordStrengthLabel: 'Password strength:',
  passwordStrengthVeryWeak: 'very weak',
  passwordStrengthWeak: 'weak',
  passwordStrengthFair: 'fair',
  passwordStrengthStrong: 'strong',
  passwordStrengthVeryStrong: 'very strong',
  passwordPolicyViolation:
    'This password does not meet the password requirements or is too easy to guess. Please choose a different one.',
  passwordHistoryViolation:
    'You have used this password before. Please choose a password you have not used recently.',
  // Expired link
  passwordLinkExpired: 'This link has expired',
  passwordLinkExpiredText:
    'For your security, password links can be used only once and only for a limited time. Request a new link, or sign in if you remember your password.',
  // Locked / unlock
  lockedAfterTooManyFailedAttempts: 'Sign-in temporarily locked',
  lockedAfterTooManyFailedAttemptsText:
    'There were too many unsuccessful sign-in attempts, so we have locked sign-in for this account to protect it. If an account exists for this address, we have sent it an e-mail with a link to unlock it. You can also reset your password.',
  unlockSuccessful: '{userName}, your account has been unlocked. You can sign in again.',
  unlockLinkExpired:
    'This unlock link has expired or has been replaced by a newer one. Reset your password to regain access to your account.',
  unlockInProgress: 'Unlocking your account…',
  // Verify new e-mail
  emailConfirmedTitle: 'E-mail address confirmed',
  newEmailVerified: 'Thank you, {userFirstName}. Your new e-mail address has been confirmed.',
  verifyingEmail: 'Confirming your new e-mail address…',
  // Errors (wording fixed by SPEC §2)
  errorTitle: "We're sorry!",
  somethingWentWrong: 'Something went wrong.',
  errorReference: 'If you contact support, please quote this reference: {reference}',
  temporarilyUnavailable: 'Keycard is temporarily unavailable. Please try again in a few minutes.',
  backToApplication: 'Back to the application',
  goToStartPage: 'Go to the start page',
  tooManyRequests: 'There were too many attempts from your network. Please wait {wait}, then try again.',
  tryAgainLabel: 'Try again',
  // Fallback landing page
  fallbackWelcome: 'Welcome',
  incorrectAccess: 'The page you opened is not a valid way into this service. Here is what you can do:',
  incorrectAccessSuggestion1: 'Check that the address in your browser starts with {host}.',
  incorrectAccessSuggestion2:
    'If you followed a link from an e-mail, use the link in the most recent message. Older links stop working after a while.',
  incorrectAccessSuggestion3:
    'Open the application you want to use and sign in from there. You will be brought back here automatically.',
  // Greetings (time of day)
  greetingMorning: 'Good morning, {userName}!',
  greetingDay: 'Hello, {userName}!',
  greetingEvening: 'Good evening, {userName}!',
  // Footer and dialogs
  helpLabel: 'Help',
  helpIntro: 'Need help signing in? Our support team is happy to help.',
  imprintLabel: 'Imprint',
  dataPolicyLabel: 'Data policy',
  dataPolicyDated: 'As of {date}',
  closeLabel: 'Close',
  backTo: 'Back to {product}',
  usingPhone: 'By phone: {phone}',
  usingEmail: 'By e-mail: {email}',
  footerNavigationLabel: 'Help and legal information',
  loading: 'Loading…',
  // Imprint
  imprintIntroduction1: 'This sign-in service is provided by the company named below.',
  imprintIntroduction2: 'Information provided in accordance with statutory disclosure requirements:',
  imprintAddress: 'Address',
  imprintCompany: 'Company',
  imprintCommercialRegister: 'Commercial register',
  imprintVat: 'VAT identification number',
  imprintFax: 'Fax',
  imprintTelephone: 'Telephone',
  imprintWeb: 'Web',
  imprintEmail: 'E-mail',
  imprintLegalRepresentative: 'Legal representative',
  imprintDataProtectionOfficial: 'Data protection officer',
  imprintLegalHint:
    'This imprint applies to {host} and all pages below it. We check the content of these pages with care but cannot accept liability for the content of external websites we link to; their operators alone are responsible for it.',
  imprintUsedComponents: 'Open-source components',
  imprintUsedComponentsIntro:
    'This service is built with the following open-source software. Each component is used under the licence named beside it.',
  imprintComponentName: 'Component',
  imprintComponentVersion: 'Version',
  imprintComponentLicense: 'Licence',
  demoTitle: 'Demo planning product',
  demoIntro:
    'This page stands in for the planning product: it signs you in through Keycard with OpenID Connect.',
  demoSignIn: 'Sign in with Keycard',
  demoSignOut: 'Sign out',
  demoSignedInAs: 'Signed in as {userName}',
  demoClaims: 'Claims of your ID token',
  demoSignedOut: 'You are not signed in.',
};
