/**
 * Keys of the localised text resource (SPEC §1), defined once. Every language must provide every key
 * with a non-empty value. Placeholders in braces are filled by the SPA: {userName}, {userFirstName},
 * {host}, {length}, {product}, {phone}, {email}, {date}, {reference}, {wait}, {seconds}.
 * The comment beside each key says what the text is for, not its wording.
 */
export const LOCALIZED_TEXT_KEYS = [
  // Sign-in
  'loginWelcome', // heading of the sign-in page, may use {product}
  'loginIntro', // one line under the heading: sign in with your e-mail address
  'wrongPasswordOrUnknownUser', // header after a failed login
  'emailPlaceholder',
  'emailLabel', // accessible label of the e-mail field
  'passwordPlaceholder',
  'newPasswordPlaceholder',
  'passwordLabel',
  'confirmPasswordPlaceholder',
  'confirmPasswordLabel',
  'newPasswordLabel',
  'showPassword', // accessible name of the show/hide toggle, in either state (it is pressed while shown)
  'nextLabel',
  'loginLabel',
  'backLabel', // the back button on step 2, which returns to the e-mail to change it
  'accountCaption', // step 2: caption above the e-mail address being signed in
  'forgotPasswordLabel', // link to the forgot-password page (footer, and beside the password field)
  'rememberedPasswordLabel', // link back to sign-in from the forgot-password page
  'goToLoginLabel',
  'resetLabel', // button of the reset form
  'sendLabel', // button of the forgot-password form
  'signingIn', // announced while a sign-in request is in flight
  'signInExpired', // beside the failed-login header when the sign-in itself expired: start again from the application
  'redirecting', // announced before a delayed redirect
  'continueNow', // button of a done state: go on to where the page would lead after its delay
  'redirectCountdown', // shown beside it, with {seconds}: the whole seconds left of the delay
  'redirectAnnouncement', // read out once when a done state appears, with {seconds} of the delay
  // Sign-out
  'logoff', // heading of the sign-out page
  'logoffGreeting', // caption with {userName}
  'logoffDone', // caption of a sign-out that names no one (a browser that was not signed in)
  'logoutConfirmTitle', // heading of the question asked before a sign-out no valid ID token vouches for
  'logoutConfirmText', // why the question is asked and what each answer does
  'logoutConfirmLabel', // button: sign out
  'logoutDeclineLabel', // button: stay signed in
  'logoutDeclined', // caption after the person chose to stay signed in
  // Forgot / reset password
  'forgotPassword', // heading of the forgot-password page
  'forgotPasswordIntro', // what the form does
  'thankYou', // heading after the request
  'checkYourEmail', // message after the request
  'resetPassword', // heading of the reset page
  'resetPasswordIntro',
  'expiredPasswordReset', // heading when the password expired (type 2)
  'expiredPasswordResetIntro',
  'setFirstPassword', // heading for an invitation (type 6)
  'passwordChangedTitle', // heading after a successful reset, an expired password's too
  'resetPasswordSuccess', // caption after a successful reset
  'expiredPasswordResetSuccess', // caption after a successful expired-password reset
  'passwordPolicyHeading',
  'passwordLengthRequirement', // with {length}
  'passwordDigitRequirement',
  'passwordLowercaseRequirement',
  'passwordUppercaseRequirement',
  'passwordSpecialRequirement',
  'passwordsMustMatch',
  'requirementMet', // accessible state of a met requirement / valid field
  'requirementNotMet',
  'passwordRequirementsMissing', // with {requirements}: the rules the new password does not meet yet
  'passwordRequirementsAllMet',
  'resetUnavailablePolicy', // why Save is disabled: the new password misses a requirement
  'resetUnavailableConfirm', // … the confirmation is empty
  'resetUnavailableMismatch', // … the two passwords differ
  'passwordStrengthLabel', // "password strength:" before the estimate's level, beside its meter
  'passwordStrengthVeryWeak', // the five levels of the strength estimate (scores 0 to 4)
  'passwordStrengthWeak',
  'passwordStrengthFair',
  'passwordStrengthStrong',
  'passwordStrengthVeryStrong',
  // The strength estimator's advice (zxcvbn-ts feedback), one key for each of its messages: a warning
  // says what makes the password easy to guess, suggestions what to do instead. Each comment names
  // what the estimator found.
  'passwordStrengthWarningStraightRow', // a straight row of keys
  'passwordStrengthWarningKeyPattern', // a short keyboard pattern
  'passwordStrengthWarningSimpleRepeat', // one character repeated
  'passwordStrengthWarningExtendedRepeat', // a group of characters repeated
  'passwordStrengthWarningSequences', // a sequence such as abc or 123
  'passwordStrengthWarningRecentYears', // a recent year
  'passwordStrengthWarningDates', // a date
  'passwordStrengthWarningTopTen', // one of the ten most used passwords
  'passwordStrengthWarningTopHundred', // one of the hundred most used passwords
  'passwordStrengthWarningCommon', // a common password
  'passwordStrengthWarningSimilarToCommon', // a common password, slightly changed
  'passwordStrengthWarningWordByItself', // a single word
  'passwordStrengthWarningNamesByThemselves', // a single first name or surname
  'passwordStrengthWarningCommonNames', // common first names and surnames
  'passwordStrengthWarningUserInputs', // the person's name or address, or the product's name
  'passwordStrengthWarningPwned', // a password from a breach list, which Keycard does not check: never shown
  'passwordStrengthSuggestionL33t', // letters replaced by look-alikes
  'passwordStrengthSuggestionReverseWords', // words spelt backwards
  'passwordStrengthSuggestionAllUppercase', // all letters uppercase
  'passwordStrengthSuggestionCapitalization', // only the first letter uppercase
  'passwordStrengthSuggestionDates', // a date
  'passwordStrengthSuggestionRecentYears', // a recent year
  'passwordStrengthSuggestionAssociatedYears', // a year as in a date
  'passwordStrengthSuggestionSequences', // a sequence
  'passwordStrengthSuggestionRepeated', // repeats
  'passwordStrengthSuggestionLongerKeyboardPattern', // a keyboard pattern
  'passwordStrengthSuggestionAnotherWord', // any weak password: add words
  'passwordStrengthSuggestionUseWords', // a sequence of words
  'passwordStrengthSuggestionNoNeed', // an empty password, which the form never estimates
  'passwordStrengthSuggestionPwned', // the same: never shown
  'passwordPolicyViolation',
  'passwordHistoryViolation',
  // Expired link
  'passwordLinkExpired', // heading
  'passwordLinkExpiredText',
  // Locked / unlock
  'lockedAfterTooManyFailedAttempts', // heading
  'lockedAfterTooManyFailedAttemptsText',
  'unlockSuccessful', // caption with {userName}
  'unlockLinkExpired',
  'unlockInProgress',
  // Verify new e-mail
  'emailConfirmedTitle', // heading after the new e-mail address was confirmed
  'newEmailVerified', // caption with {userFirstName}
  'verifyingEmail',
  // Errors
  'errorTitle', // "We're sorry!"
  'somethingWentWrong', // "Something went wrong."
  'errorReference', // the reference of a refused request's log line, with {reference}
  'temporarilyUnavailable', // the error page's line when the service is down for a while (try again later)
  'backToApplication', // the error page's way back to the application named by the RedirectUrl
  'goToStartPage', // the error page's way back when neither sign-in nor the application is known
  'tooManyRequests', // after a call refused for too many requests: wait {wait} (e.g. "45 seconds"), then retry
  'tryAgainLabel', // button that repeats a call that failed (the reset page's code check)
  // Fallback landing page
  'fallbackWelcome',
  'incorrectAccess',
  'incorrectAccessSuggestion1', // with {host}
  'incorrectAccessSuggestion2',
  'incorrectAccessSuggestion3',
  // Greetings (time of day) with {userName}
  'greetingMorning',
  'greetingDay',
  'greetingEvening',
  // Footer and dialogs
  'helpLabel',
  'helpIntro',
  'imprintLabel',
  'dataPolicyLabel',
  'dataPolicyDated', // "As of {date}" above the data policy
  'closeLabel',
  'backTo', // "Back to {product}"
  'usingPhone', // with {phone}
  'usingEmail', // with {email}
  'footerNavigationLabel',
  'loading',
  // Imprint
  'imprintIntroduction1',
  'imprintIntroduction2',
  'imprintAddress',
  'imprintCompany',
  'imprintCommercialRegister',
  'imprintVat',
  'imprintFax',
  'imprintTelephone',
  'imprintWeb',
  'imprintEmail',
  'imprintLegalRepresentative',
  'imprintDataProtectionOfficial',
  'imprintLegalHint', // with {host}
  'imprintUsedComponents', // heading of the open-source notice
  'imprintUsedComponentsIntro',
  'imprintComponentName',
  'imprintComponentVersion',
  'imprintComponentLicense',
  // Demo relying party (development mode only, /demo)
  'demoTitle',
  'demoIntro',
  'demoSignIn',
  'demoSignOut',
  'demoSignedInAs', // with {userName}
  'demoClaims', // heading of the ID-token claims table
  'demoSignedOut',
] as const;

/**
 * Keys whose values come from the site configuration (SITE_FILE): product name in two parts, help
 * contact and imprint details (SPEC §1). Each is one string or one string per language.
 */
export const SITE_TEXT_KEYS = [
  'productNamePart1',
  'productNamePart2',
  'sitePhone',
  'siteEmail',
  'siteAddress',
  'siteCompany',
  'siteCommercialRegister',
  'siteVat',
  'siteFax',
  'siteTelephone',
  'siteWeb',
  'siteLegalRepresentative',
  'siteDataProtectionOfficial',
] as const;

export type LocalizedTextKey = (typeof LOCALIZED_TEXT_KEYS)[number];
export type SiteTextKey = (typeof SITE_TEXT_KEYS)[number];
export type TextKey = LocalizedTextKey | SiteTextKey;

export const TEXT_KEYS: readonly TextKey[] = [...LOCALIZED_TEXT_KEYS, ...SITE_TEXT_KEYS];

/** One language's texts: every localised key, each a non-empty string. */
export type LanguageTexts = Readonly<Record<LocalizedTextKey, string>>;
/** Site values of SITE_FILE, resolved for one language. */
export type SiteTexts = Readonly<Record<SiteTextKey, string>>;
/** One value of SITE_FILE: the same string in every language, or one string per language. */
export type SiteValue = string | Readonly<Record<Language, string>>;
/** SITE_FILE as written: every site key, each a plain string or a string per language. */
export type SiteFile = Readonly<Record<SiteTextKey, SiteValue>>;

/** The site values in `language`: a plain string is the same in every language. */
export function siteTextsFor(site: SiteFile, language: Language): SiteTexts {
  return Object.fromEntries(
    SITE_TEXT_KEYS.map((key) => {
      const value = site[key];
      return [key, typeof value === 'string' ? value : value[language]];
    }),
  ) as Record<SiteTextKey, string>;
}

/** Languages the resource is written in; lookup is by primary subtag with English as fallback. */
export const LANGUAGES = ['en', 'de'] as const;
export type Language = (typeof LANGUAGES)[number];

/** Response of GET api/i18n/getresource: every key, each a non-empty string. */
export type TextResource = Readonly<Record<TextKey, string>>;

/** Primary subtag of a BCP 47 tag mapped to a supported language; English when unsupported. */
export function languageFor(tag: string | undefined | null): Language {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (LANGUAGES as readonly string[]).includes(primary ?? '') ? (primary as Language) : 'en';
}

/** Fills {name} placeholders; unknown placeholders are left as they are. */
export function fillText(text: string, values: Readonly<Record<string, string | number>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );
}
