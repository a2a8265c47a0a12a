import type { MailTexts } from './mail-texts.ts';

/**
 * German mail, formal address ("Sie"). Same security wording as the English texts: link mails say
 * the link expires and may be ignored; notices name the support address.
 */
export const de: MailTexts = {
  common: {
    greeting: 'Guten Tag {userName},',
    linkHint: 'Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:',
    footer:
      'Diese Nachricht wurde automatisch von {product} versandt; bitte antworten Sie nicht darauf. Wenn Sie Hilfe benötigen, schreiben Sie an {supportEmail}.',
  },
  kinds: {
    password_reset: {
      subject: 'Ihr {product}-Passwort zurücksetzen',
      intro: [
        'Wir haben eine Anfrage erhalten, das Passwort Ihres {product}-Kontos zurückzusetzen. Über den folgenden Link können Sie ein neues Passwort festlegen.',
      ],
      action: 'Neues Passwort festlegen',
      outro: [
        'Zu Ihrer Sicherheit ist der Link nur kurze Zeit gültig und kann nur einmal verwendet werden. Ist er abgelaufen, können Sie auf der Anmeldeseite einen neuen anfordern.',
        'Falls Sie kein neues Passwort angefordert haben, können Sie diese E-Mail ignorieren. Ihr Passwort bleibt unverändert.',
      ],
    },
    unlock: {
      subject: 'Ihr {product}-Konto wurde gesperrt',
      intro: [
        'Ihr {product}-Konto wurde nach mehreren erfolglosen Anmeldeversuchen gesperrt. Über den folgenden Link können Sie es entsperren.',
      ],
      action: 'Mein Konto entsperren',
      outro: [
        'Zu Ihrer Sicherheit ist der Link nur kurze Zeit gültig.',
        'Falls Sie sich nicht anmelden wollten, können Sie diese E-Mail ignorieren; Ihr Passwort wurde nicht geändert. Wenn Sie vermuten, dass jemand anderes Ihr Konto verwenden will, schreiben Sie bitte an {supportEmail}.',
      ],
    },
    invitation: {
      subject: 'Ihr {product}-Konto ist eingerichtet',
      intro: [
        'Für Sie wurde ein Konto in {product} eingerichtet. Legen Sie zum Start bitte über den folgenden Link Ihr Passwort fest.',
      ],
      action: 'Passwort festlegen',
      outro: [
        'Der Link ist einige Tage gültig. Ist er abgelaufen, bitten Sie die Person, die Sie eingeladen hat, um eine neue Einladung.',
        'Falls Sie diese Einladung nicht erwartet haben, können Sie diese E-Mail ignorieren.',
      ],
    },
    email_change_confirm: {
      subject: 'Bestätigen Sie Ihre neue E-Mail-Adresse für {product}',
      intro: [
        'Bitte bestätigen Sie, dass {newEmail} die neue E-Mail-Adresse Ihres {product}-Kontos ist. Bis zur Bestätigung melden Sie sich weiter mit Ihrer bisherigen Adresse an.',
      ],
      action: 'Neue Adresse bestätigen',
      outro: [
        'Zu Ihrer Sicherheit ist der Link nur begrenzte Zeit gültig.',
        'Falls Sie diese Änderung nicht angefordert haben, können Sie diese E-Mail ignorieren. Die Adresse des Kontos bleibt unverändert.',
      ],
    },
    email_change_notice: {
      subject: 'Die E-Mail-Adresse Ihres {product}-Kontos wird geändert',
      intro: [
        'Die E-Mail-Adresse Ihres {product}-Kontos wird in {newEmail} geändert. Sobald die Änderung bestätigt ist, melden Sie sich mit der neuen Adresse an, und Nachrichten zu Ihrem Konto gehen dorthin.',
      ],
      outro: [
        'Falls Sie diese Änderung nicht angefordert haben, schreiben Sie bitte umgehend an {supportEmail}, damit wir Ihr Konto schützen können.',
      ],
    },
    email_changed: {
      subject: 'Die E-Mail-Adresse Ihres {product}-Kontos wurde geändert',
      intro: [
        'Die E-Mail-Adresse Ihres {product}-Kontos wurde in {newEmail} geändert. Ab jetzt melden Sie sich mit der neuen Adresse an, und Nachrichten zu Ihrem Konto gehen dorthin; Links, die zuvor an diese Adresse geschickt wurden, funktionieren nicht mehr.',
      ],
      outro: [
        'Falls Sie diese Änderung nicht angefordert haben, schreiben Sie bitte umgehend an {supportEmail}, damit wir Ihr Konto schützen können.',
      ],
    },
    password_expired: {
      subject: 'Bitte wählen Sie ein neues {product}-Passwort',
      intro: [
        'Ihr {product}-Passwort ist abgelaufen. Geben Sie bei Ihrer nächsten Anmeldung wie gewohnt Ihr bisheriges Passwort ein; danach werden Sie gebeten, ein neues zu wählen.',
      ],
      outro: [
        'Falls Ihnen das unbekannt vorkommt, schreiben Sie bitte an {supportEmail}. Wir fragen niemals per E-Mail nach Ihrem Passwort.',
      ],
    },
    password_changed: {
      subject: 'Ihr {product}-Passwort wurde geändert',
      intro: [
        'Das Passwort Ihres {product}-Kontos wurde soeben geändert. Wenn Sie das waren, ist nichts weiter zu tun.',
      ],
      outro: [
        'Falls Sie Ihr Passwort nicht geändert haben, schreiben Sie bitte umgehend an {supportEmail}, damit wir Ihr Konto schützen können.',
      ],
    },
    federated_account: {
      subject: 'So melden Sie sich bei {product} an',
      intro: [
        'Wir haben eine Anfrage erhalten, das Passwort Ihres {product}-Kontos zurückzusetzen. Ihr Konto meldet sich über Ihre Organisation ({providerName}) an und hat deshalb kein eigenes Passwort in {product}.',
        'Geben Sie zur Anmeldung Ihre E-Mail-Adresse auf der Anmeldeseite von {product} ein; Sie werden dann zur Anmeldung Ihrer Organisation weitergeleitet. Falls das nicht funktioniert, wenden Sie sich bitte an den IT-Support Ihrer Organisation.',
      ],
      outro: [
        'Falls Sie kein Zurücksetzen eines Passworts angefordert haben, können Sie diese E-Mail ignorieren.',
      ],
    },
  },
};
