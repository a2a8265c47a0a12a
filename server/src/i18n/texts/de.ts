import type { LanguageTexts } from '@keycard/contract';

/**
 * German texts of the resource (SPEC §1), formal address ("Sie"). Placeholders are filled by the SPA.
 * Security wording: failed sign-in and forgot-password answers never say whether an account exists.
 */
export const de: LanguageTexts = {
  // Sign-in
  loginWelcome: 'Willkommen bei {product}',
  loginIntro: 'Melden Sie sich mit Ihrer E-Mail-Adresse an.',
  wrongPasswordOrUnknownUser:
    'E-Mail-Adresse oder Passwort ist nicht korrekt. Bitte versuchen Sie es erneut.',
  emailPlaceholder: 'E-Mail-Adresse',
  emailLabel: 'E-Mail-Adresse',
  passwordPlaceholder: 'Passwort',
  newPasswordPlaceholder: 'Neues Passwort',
  passwordLabel: 'Passwort',
  confirmPasswordPlaceholder: 'Neues Passwort wiederholen',
  confirmPasswordLabel: 'Neues Passwort wiederholen',
  newPasswordLabel: 'Neues Passwort',
  showPassword: 'Passwort anzeigen',
  nextLabel: 'Weiter',
  loginLabel: 'Anmelden',
  backLabel: 'Zurück zur E-Mail-Adresse',
  accountCaption: 'Anmeldung als',
  forgotPasswordLabel: 'Passwort vergessen?',
  rememberedPasswordLabel: 'Passwort wieder eingefallen? Zur Anmeldung',
  goToLoginLabel: 'Zur Anmeldung',
  resetLabel: 'Passwort speichern',
  sendLabel: 'Link senden',
  signingIn: 'Sie werden angemeldet …',
  signInExpired:
    'Diese Anmeldung ist abgelaufen. Bitte kehren Sie zur Anwendung zurück und melden Sie sich von dort aus erneut an.',
  redirecting: 'Sie werden gleich weitergeleitet …',
  continueNow: 'Jetzt weiter',
  redirectCountdown: 'Weiter in {seconds} s',
  redirectAnnouncement:
    'Sie werden in {seconds} Sekunden automatisch weitergeleitet, oder gehen Sie gleich weiter.',
  // Sign-out
  logoff: 'Abgemeldet',
  logoffGreeting: 'Auf Wiedersehen, {userName}. Sie wurden erfolgreich abgemeldet.',
  logoffDone: 'Sie sind abgemeldet.',
  logoutConfirmTitle: 'Von Keycard abmelden?',
  logoutConfirmText:
    'Eine Website möchte Sie abmelden. Sie bleiben angemeldet, solange Sie die Abmeldung nicht bestätigen.',
  logoutConfirmLabel: 'Abmelden',
  logoutDeclineLabel: 'Angemeldet bleiben',
  logoutDeclined: 'Sie sind weiterhin angemeldet.',
  // Forgot / reset password
  forgotPassword: 'Passwort vergessen?',
  forgotPasswordIntro:
    'Geben Sie die E-Mail-Adresse Ihres Kontos ein. Wir senden Ihnen dann einen Link, mit dem Sie ein neues Passwort festlegen können.',
  thankYou: 'Vielen Dank',
  checkYourEmail:
    'Falls für diese Adresse ein Konto besteht, haben wir eine E-Mail mit einem Link zum Zurücksetzen Ihres Passworts dorthin gesendet. Bitte sehen Sie in Ihrem Posteingang und im Spam-Ordner nach. Der Link ist nur für begrenzte Zeit gültig.',
  resetPassword: 'Neues Passwort festlegen',
  resetPasswordIntro:
    'Geben Sie Ihr neues Passwort zweimal ein. Es muss alle unten aufgeführten Anforderungen erfüllen.',
  expiredPasswordReset: 'Ihr Passwort ist abgelaufen',
  expiredPasswordResetIntro:
    'Bitte legen Sie zu Ihrer Sicherheit ein neues Passwort fest, bevor Sie fortfahren. Es muss alle unten aufgeführten Anforderungen erfüllen.',
  setFirstPassword: 'Passwort festlegen',
  passwordChangedTitle: 'Passwort geändert',
  resetPasswordSuccess: 'Ihr neues Passwort wurde gespeichert. Sie können sich ab sofort damit anmelden.',
  expiredPasswordResetSuccess:
    'Ihr neues Passwort wurde gespeichert. Bitte melden Sie sich mit dem neuen Passwort erneut an.',
  passwordPolicyHeading: 'Ihr Passwort muss Folgendes enthalten:',
  passwordLengthRequirement: 'Mindestens {length} Zeichen',
  passwordDigitRequirement: 'Mindestens eine Ziffer (0–9)',
  passwordLowercaseRequirement: 'Mindestens einen Kleinbuchstaben',
  passwordUppercaseRequirement: 'Mindestens einen Großbuchstaben',
  passwordSpecialRequirement:
    'Mindestens ein Zeichen, das weder Buchstabe noch Ziffer ist, zum Beispiel ein Leerzeichen, ! ? # oder %',
  passwordsMustMatch: 'Die beiden Passwörter müssen übereinstimmen.',
  requirementMet: 'Anforderung erfüllt',
  requirementNotMet: 'Anforderung nicht erfüllt',
  passwordRequirementsMissing: 'Es fehlt noch: {requirements}.',
  passwordRequirementsAllMet: 'Alle Anforderungen sind erfüllt.',
  resetUnavailablePolicy: 'Speichern ist möglich, sobald das neue Passwort alle Anforderungen erfüllt.',
  resetUnavailableConfirm:
    'Speichern ist möglich, sobald Sie das neue Passwort im Bestätigungsfeld noch einmal eingegeben haben.',
  resetUnavailableMismatch: 'Speichern ist möglich, sobald beide Passwörter übereinstimmen.',
  passwordStrengthLabel: 'Passwortstärke:',
  passwordStrengthVeryWeak: 'sehr schwach',
  passwordStrengthWeak: 'schwach',
  passwordStrengthFair: 'mittel',
  passwordStrengthStrong: 'stark',
  passwordStrengthVeryStrong: 'sehr stark',
  passwordStrengthWarningStraightRow: 'Gerade Tastenreihen der Tastatur sind leicht zu erraten.',
  passwordStrengthWarningKeyPattern: 'Kurze Tastaturmuster sind leicht zu erraten.',
  passwordStrengthWarningSimpleRepeat: 'Wiederholte Zeichen wie „aaa“ sind leicht zu erraten.',
  passwordStrengthWarningExtendedRepeat: 'Wiederholte Zeichenmuster wie „abcabcabc“ sind leicht zu erraten.',
  passwordStrengthWarningSequences: 'Häufige Zeichenfolgen wie „abc“ oder „123“ sind leicht zu erraten.',
  passwordStrengthWarningRecentYears: 'Jahreszahlen der letzten Jahre sind leicht zu erraten.',
  passwordStrengthWarningDates: 'Ein Datum ist leicht zu erraten.',
  passwordStrengthWarningTopTen: 'Dies ist eines der meistverwendeten Passwörter.',
  passwordStrengthWarningTopHundred: 'Dies ist ein sehr häufig verwendetes Passwort.',
  passwordStrengthWarningCommon: 'Dies ist ein oft verwendetes Passwort.',
  passwordStrengthWarningSimilarToCommon: 'Dies ähnelt einem oft verwendeten Passwort.',
  passwordStrengthWarningWordByItself: 'Einzelne Wörter sind leicht zu erraten.',
  passwordStrengthWarningNamesByThemselves: 'Einzelne Vor- oder Nachnamen sind leicht zu erraten.',
  passwordStrengthWarningCommonNames: 'Häufige Vor- und Nachnamen sind leicht zu erraten.',
  passwordStrengthWarningUserInputs:
    'Ihr Name, Ihre E-Mail-Adresse und der Name des Produkts sind leicht zu erraten.',
  passwordStrengthWarningPwned: 'Dieses Passwort ist in einem Datenleck aufgetaucht.',
  passwordStrengthSuggestionL33t: 'Vermeiden Sie vorhersehbare Ersetzungen wie „@“ für „a“.',
  passwordStrengthSuggestionReverseWords: 'Vermeiden Sie rückwärts geschriebene gebräuchliche Wörter.',
  passwordStrengthSuggestionAllUppercase: 'Schreiben Sie einige, aber nicht alle Buchstaben groß.',
  passwordStrengthSuggestionCapitalization: 'Schreiben Sie mehr als nur den ersten Buchstaben groß.',
  passwordStrengthSuggestionDates:
    'Vermeiden Sie Daten und Jahreszahlen, die mit Ihnen in Verbindung stehen.',
  passwordStrengthSuggestionRecentYears: 'Vermeiden Sie Jahreszahlen der letzten Jahre.',
  passwordStrengthSuggestionAssociatedYears:
    'Vermeiden Sie Jahreszahlen, die mit Ihnen in Verbindung stehen.',
  passwordStrengthSuggestionSequences: 'Vermeiden Sie häufige Zeichenfolgen.',
  passwordStrengthSuggestionRepeated: 'Vermeiden Sie wiederholte Wörter und Zeichen.',
  passwordStrengthSuggestionLongerKeyboardPattern:
    'Verwenden Sie längere Tastaturmuster und wechseln Sie mehrmals die Richtung.',
  passwordStrengthSuggestionAnotherWord: 'Fügen Sie weitere, weniger gebräuchliche Wörter hinzu.',
  passwordStrengthSuggestionUseWords: 'Verwenden Sie mehrere Wörter, aber keine gängigen Redewendungen.',
  passwordStrengthSuggestionNoNeed:
    'Ein langes Passwort aus mehreren unzusammenhängenden Wörtern ist stark und leicht zu merken.',
  passwordStrengthSuggestionPwned:
    'Wenn Sie dieses Passwort auch anderswo verwenden, ändern Sie es dort ebenfalls.',
  passwordPolicyViolation:
    'Dieses Passwort erfüllt die Passwortanforderungen nicht oder ist zu leicht zu erraten. Bitte wählen Sie ein anderes.',
  passwordHistoryViolation:
    'Dieses Passwort haben Sie bereits verwendet. Bitte wählen Sie ein Passwort, das Sie in letzter Zeit nicht genutzt haben.',
  // Expired link
  passwordLinkExpired: 'Dieser Link ist abgelaufen',
  passwordLinkExpiredText:
    'Zu Ihrer Sicherheit ist jeder Passwort-Link nur einmal und nur für begrenzte Zeit gültig. Fordern Sie einen neuen Link an oder melden Sie sich an, falls Ihnen Ihr Passwort wieder eingefallen ist.',
  // Locked / unlock
  lockedAfterTooManyFailedAttempts: 'Anmeldung vorübergehend gesperrt',
  lockedAfterTooManyFailedAttemptsText:
    'Nach zu vielen erfolglosen Anmeldeversuchen haben wir die Anmeldung für dieses Konto zu seinem Schutz gesperrt. Falls für diese Adresse ein Konto besteht, haben wir eine E-Mail mit einem Link zum Entsperren dorthin gesendet. Sie können Ihr Passwort auch zurücksetzen.',
  unlockSuccessful: '{userName}, Ihr Konto wurde entsperrt. Sie können sich wieder anmelden.',
  unlockLinkExpired:
    'Dieser Link zum Entsperren ist abgelaufen oder wurde durch einen neueren ersetzt. Setzen Sie Ihr Passwort zurück, um wieder Zugang zu Ihrem Konto zu erhalten.',
  unlockInProgress: 'Ihr Konto wird entsperrt …',
  // Verify new e-mail
  emailConfirmedTitle: 'E-Mail-Adresse bestätigt',
  newEmailVerified: 'Vielen Dank, {userFirstName}. Ihre neue E-Mail-Adresse wurde bestätigt.',
  verifyingEmail: 'Ihre neue E-Mail-Adresse wird bestätigt …',
  // Errors
  errorTitle: 'Es tut uns leid!',
  somethingWentWrong: 'Etwas ist schiefgelaufen.',
  errorReference: 'Wenn Sie sich an den Support wenden, nennen Sie bitte diese Referenz: {reference}',
  temporarilyUnavailable:
    'Keycard ist vorübergehend nicht erreichbar. Bitte versuchen Sie es in einigen Minuten erneut.',
  backToApplication: 'Zurück zur Anwendung',
  goToStartPage: 'Zur Startseite',
  tooManyRequests:
    'Aus Ihrem Netzwerk kamen zu viele Versuche. Bitte warten Sie {wait} und versuchen Sie es dann erneut.',
  tryAgainLabel: 'Erneut versuchen',
  // Fallback landing page
  fallbackWelcome: 'Willkommen',
  incorrectAccess:
    'Über die aufgerufene Seite gelangen Sie nicht in diesen Dienst. Folgendes können Sie tun:',
  incorrectAccessSuggestion1: 'Prüfen Sie, ob die Adresse in Ihrem Browser mit {host} beginnt.',
  incorrectAccessSuggestion2:
    'Wenn Sie einem Link aus einer E-Mail gefolgt sind, verwenden Sie den Link aus der neuesten Nachricht. Ältere Links sind nach einiger Zeit nicht mehr gültig.',
  incorrectAccessSuggestion3:
    'Öffnen Sie die Anwendung, die Sie nutzen möchten, und melden Sie sich von dort aus an. Sie werden automatisch hierher weitergeleitet.',
  // Greetings (time of day)
  greetingMorning: 'Guten Morgen, {userName}!',
  greetingDay: 'Guten Tag, {userName}!',
  greetingEvening: 'Guten Abend, {userName}!',
  // Footer and dialogs
  helpLabel: 'Hilfe',
  helpIntro: 'Sie benötigen Hilfe bei der Anmeldung? Unser Support-Team hilft Ihnen gern weiter.',
  imprintLabel: 'Impressum',
  dataPolicyLabel: 'Datenschutz',
  dataPolicyDated: 'Stand: {date}',
  closeLabel: 'Schließen',
  backTo: 'Zurück zu {product}',
  usingPhone: 'Telefonisch: {phone}',
  usingEmail: 'Per E-Mail: {email}',
  footerNavigationLabel: 'Hilfe und rechtliche Hinweise',
  loading: 'Wird geladen …',
  // Imprint
  imprintIntroduction1: 'Dieser Anmeldedienst wird von dem unten genannten Unternehmen angeboten.',
  imprintIntroduction2: 'Angaben gemäß den gesetzlichen Informationspflichten:',
  imprintAddress: 'Anschrift',
  imprintCompany: 'Unternehmen',
  imprintCommercialRegister: 'Handelsregister',
  imprintVat: 'Umsatzsteuer-Identifikationsnummer',
  imprintFax: 'Fax',
  imprintTelephone: 'Telefon',
  imprintWeb: 'Internet',
  imprintEmail: 'E-Mail',
  imprintLegalRepresentative: 'Vertreten durch',
  imprintDataProtectionOfficial: 'Datenschutzbeauftragter',
  imprintLegalHint:
    'Dieses Impressum gilt für {host} und alle darunterliegenden Seiten. Wir prüfen die Inhalte dieser Seiten mit Sorgfalt, übernehmen jedoch keine Haftung für die Inhalte externer Websites, auf die wir verlinken; für diese sind ausschließlich deren Betreiber verantwortlich.',
  imprintUsedComponents: 'Open-Source-Komponenten',
  imprintUsedComponentsIntro:
    'Dieser Dienst verwendet die folgende Open-Source-Software. Jede Komponente wird unter der daneben genannten Lizenz genutzt.',
  imprintComponentName: 'Komponente',
  imprintComponentVersion: 'Version',
  imprintComponentLicense: 'Lizenz',
  demoTitle: 'Demo-Planungsprodukt',
  demoIntro: 'Diese Seite vertritt das Planungsprodukt: Sie meldet Sie über Keycard mit OpenID Connect an.',
  demoSignIn: 'Mit Keycard anmelden',
  demoSignOut: 'Abmelden',
  demoSignedInAs: 'Angemeldet als {userName}',
  demoClaims: 'Angaben Ihres ID-Tokens',
  demoSignedOut: 'Sie sind nicht angemeldet.',
};
