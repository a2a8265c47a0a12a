import type { DataPolicyText } from './types.ts';

/** Deutsche Datenschutzerklärung des Anmeldedienstes (SPEC §1), Stand 29.05.2018. */
const policy: DataPolicyText = {
  title: 'Datenschutzerklärung',
  dated: '29.05.2018',
  sections: [
    {
      heading: '1. Worum es in dieser Erklärung geht',
      paragraphs: [
        'Keycard ist der Anmelde- und Wiederherstellungsdienst unseres Produkts für die Planung im Gastgewerbe. Über Keycard melden Sie sich an und ab, setzen ein vergessenes oder abgelaufenes Passwort zurück, entsperren Ihr Konto und bestätigen eine geänderte E-Mail-Adresse. In dieser Datenschutzerklärung informieren wir Sie darüber, welche personenbezogenen Daten wir dabei verarbeiten, zu welchen Zwecken und auf welcher Rechtsgrundlage, wie lange wir sie speichern und welche Rechte Ihnen zustehen.',
        'Wir verarbeiten personenbezogene Daten nach den Vorgaben der Datenschutz-Grundverordnung (DSGVO) und des ergänzenden deutschen Datenschutzrechts, insbesondere des Bundesdatenschutzgesetzes (BDSG). Für die Daten, die Sie nach der Anmeldung im Planungsprodukt selbst erfassen, gilt dessen eigene Datenschutzerklärung.',
      ],
    },
    {
      heading: '2. Verantwortlicher und Datenschutzbeauftragter',
      paragraphs: [
        'Verantwortlicher im Sinne von Art. 4 Nr. 7 DSGVO ist das Unternehmen, das Keycard betreibt. Firma, Anschrift, Telefonnummer, E-Mail-Adresse und Vertretungsberechtigte finden Sie im Impressum, das Sie über die Fußzeile jeder Seite aufrufen können.',
        'Wir haben einen Datenschutzbeauftragten benannt. Sie erreichen ihn unter den im Impressum angegebenen Kontaktdaten mit dem Zusatz „z. Hd. des Datenschutzbeauftragten“. Mit allen Fragen zur Verarbeitung Ihrer Daten und zu Ihren Rechten können Sie sich unmittelbar an ihn wenden.',
      ],
    },
    {
      heading: '3. Welche Daten wir verarbeiten',
      paragraphs: [
        'Kontodaten: Ihre E-Mail-Adresse, die zugleich Ihr Benutzername ist, sowie Ihr Name, mit dem wir Sie begrüßen. Ihr Konto legt die Administration des von Ihnen genutzten Planungsprodukts an; eine gesonderte Registrierung bei uns ist nicht erforderlich.',
        'Passwort: Ihr Passwort speichern wir zu keinem Zeitpunkt im Klartext. Gespeichert wird ausschließlich ein Einweg-Hashwert, den wir mit einem modernen, bewusst rechenaufwendigen Verfahren und einem zufälligen Salt bilden. Aus diesem Hashwert lässt sich das Passwort nicht zurückgewinnen – auch nicht von uns. Damit Sie kürzlich verwendete Passwörter nicht erneut wählen, bewahren wir die Hashwerte Ihrer letzten Passwörter auf, niemals die Passwörter selbst.',
        'Verbindungs- und Nutzungsdaten: Bei jedem Aufruf übermittelt Ihr Browser technisch notwendige Angaben, ohne die wir die Seiten nicht ausliefern könnten. Dazu gehören Ihre IP-Adresse, Datum und Uhrzeit des Zugriffs, die aufgerufene Seite, Art und Version des Browsers, das Betriebssystem und die im Browser eingestellte Sprache.',
        'Anmelde- und Sicherheitsereignisse: Zu jeder erfolgreichen oder fehlgeschlagenen Anmeldung, Sperrung, Entsperrung, Passwortzurücksetzung, Änderung der E-Mail-Adresse und Abmeldung halten wir Zeitpunkt, Art des Ereignisses, das betroffene Konto, die IP-Adresse und das Ergebnis fest. Passwörter, Bestätigungscodes und Sitzungskennungen werden dabei nie erfasst.',
        'Bestätigungscodes: Links zum Zurücksetzen des Passworts, zum Entsperren des Kontos oder zur Bestätigung einer neuen E-Mail-Adresse enthalten einen Zufallscode. Von diesem Code speichern wir nur einen Hashwert zusammen mit seiner Art und seinem Ablaufzeitpunkt.',
      ],
    },
    {
      heading: '4. Zwecke und Rechtsgrundlagen der Verarbeitung',
      paragraphs: [
        'Art. 6 Abs. 1 lit. b DSGVO (Vertragserfüllung): Ihre Kontodaten, den Hashwert Ihres Passworts und die Bestätigungscodes verarbeiten wir, um Sie am Planungsprodukt anzumelden, Ihre Sitzung aufrechtzuerhalten, Sie abzumelden und Ihnen die Wiederherstellung Ihres Zugangs zu ermöglichen – durch Zurücksetzen des Passworts, Entsperren des Kontos oder Bestätigen einer neuen E-Mail-Adresse.',
        'Art. 6 Abs. 1 lit. c DSGVO (rechtliche Verpflichtung): Soweit das Gesetz es verlangt, verarbeiten wir personenbezogene Daten, insbesondere um die Sicherheit der Verarbeitung nach Art. 32 DSGVO zu gewährleisten, Anfragen betroffener Personen zu beantworten, gesetzliche Aufbewahrungspflichten zu erfüllen und rechtmäßigen behördlichen Anordnungen nachzukommen.',
        'Art. 6 Abs. 1 lit. f DSGVO (berechtigte Interessen): Auf dieser Grundlage führen wir Server- und Sicherheitsprotokolle und setzen einen Dienst zur Anwendungsüberwachung ein. Unser berechtigtes Interesse besteht darin, Ihr Konto und unsere Systeme vor Missbrauch wie dem Erraten von Passwörtern zu schützen, Angriffe zu erkennen und aufzuklären sowie technische Fehler rasch zu beheben. Wir haben diese Interessen gegen Ihre abgewogen und beschränken die Daten auf das Notwendige und auf eine kurze Speicherdauer.',
        'Art. 6 Abs. 1 lit. a DSGVO (Einwilligung): Der Anmeldedienst ist nicht auf Ihre Einwilligung angewiesen. Sollten wir Sie künftig für einen bestimmten Zweck um eine Einwilligung bitten, weisen wir an dieser Stelle deutlich darauf hin; Sie können eine erteilte Einwilligung jederzeit mit Wirkung für die Zukunft widerrufen.',
      ],
    },
    {
      heading: '5. Anmeldung und Schutz Ihres Kontos',
      paragraphs: [
        'Die Anmeldung erfolgt in zwei Schritten. Zunächst geben Sie Ihre E-Mail-Adresse ein. Anhand ihrer Domain prüfen wir, ob sich Ihre Organisation über einen eigenen Identitätsanbieter anmeldet; in diesem Fall leiten wir Sie zusammen mit Ihrer E-Mail-Adresse dorthin weiter. Andernfalls geben Sie Ihr Passwort ein, das verschlüsselt übertragen und mit dem gespeicherten Hashwert abgeglichen wird.',
        'Zum Schutz vor dem Erraten von Passwörtern zählen wir fehlgeschlagene Anmeldeversuche. Nach mehreren Fehlversuchen in Folge wird die Anmeldung vorübergehend gesperrt, und wir senden eine E-Mail mit einem Link zum Entsperren an die Adresse des Kontos. Unsere Meldungen sind so formuliert, dass sie nicht verraten, ob zu einer E-Mail-Adresse ein Konto besteht.',
        'Alle Verbindungen zu Keycard sind verschlüsselt. Zugriff auf unsere Systeme haben nur die Beschäftigten, die den Dienst betreiben; sie sind zur Vertraulichkeit verpflichtet.',
      ],
    },
    {
      heading: '6. E-Mails zur Wiederherstellung des Zugangs',
      paragraphs: [
        'E-Mails senden wir Ihnen nur, wenn der Dienst sie erfordert: einen Link zum Zurücksetzen des Passworts, wenn Sie diesen anfordern, einen Link zum Entsperren nach einer Sperrung, einen Link zur Bestätigung einer neuen E-Mail-Adresse, eine Einladung zum Festlegen Ihres ersten Passworts sowie kurze Hinweise, wenn Ihr Passwort oder Ihre E-Mail-Adresse geändert wurde. So bemerken Sie Änderungen, die Sie nicht selbst vorgenommen haben.',
        'Dafür verarbeiten wir Ihre E-Mail-Adresse, Ihren Namen und den Link mit dem Bestätigungscode. Jeder Link ist nur begrenzte Zeit gültig und nur einmal verwendbar; ein neuerer Link ersetzt ältere Links derselben Art. Der Versand erfolgt über einen für uns betriebenen Mailserver. Rechtsgrundlage ist Art. 6 Abs. 1 lit. b DSGVO. Newsletter oder Werbung versenden wir über diesen Dienst nicht.',
      ],
    },
    {
      heading: '7. Server- und Sicherheitsprotokolle',
      paragraphs: [
        'Unsere Server protokollieren jeden Zugriff in Logdateien; die in Abschnitt 3 beschriebenen Sicherheitsereignisse werden zusätzlich in einem Sicherheitsprotokoll erfasst. Diese Aufzeichnungen benötigen wir für einen zuverlässigen Betrieb, zur Abwehr von Angriffen und Missbrauch sowie zur Aufklärung von Sicherheitsvorfällen. Rechtsgrundlage ist Art. 6 Abs. 1 lit. f DSGVO.',
        'Server- und Sicherheitsprotokolle speichern wir 4 Wochen (28 Tage) lang; danach werden sie automatisch gelöscht. Nur wenn ein konkreter Sicherheitsvorfall untersucht werden muss, bewahren wir die betroffenen Einträge länger auf, und zwar bis zum Abschluss der Untersuchung.',
        'Eine Zusammenführung der Protokolldaten mit anderen Datenquellen oder eine Profilbildung findet nicht statt.',
      ],
    },
    {
      heading: '8. Cookies',
      paragraphs: [
        'Keycard setzt ausschließlich Cookies ein, die technisch unbedingt erforderlich sind, um den von Ihnen gewünschten Dienst bereitzustellen. Ein Sitzungscookie hält Sie angemeldet, während Sie zwischen unseren Produkten wechseln, und beendet die Anmeldung, wenn Sie sich abmelden oder die Sitzung abläuft. Ein Cookie zum Schutz vor Cross-Site-Request-Forgery verhindert, dass eine fremde Website in Ihrem Namen Formulare absendet. Weitere kurzlebige Cookies halten den Zustand einer laufenden Anmeldung fest.',
        'Diese Cookies enthalten nur zufällige Kennungen, sind für Skripte nicht lesbar und gegen Missbrauch durch andere Websites geschützt. Sie werden gelöscht, sobald die zugehörige Sitzung oder Anmeldung endet.',
        'Cookies oder vergleichbare Techniken zu Tracking-, Analyse- oder Werbezwecken verwenden wir nicht. Da alle eingesetzten Cookies unbedingt erforderlich sind, holen wir hierfür keine Einwilligung ein. Sie können Cookies in Ihrem Browser jederzeit blockieren oder löschen; ohne sie ist eine Anmeldung allerdings nicht möglich.',
      ],
    },
    {
      heading: '9. Anwendungsüberwachung',
      paragraphs: [
        'Um Fehler und Leistungsprobleme schnell zu erkennen, nutzen wir einen Dienst zur Anwendungsüberwachung (Fehler- und Performance-Monitoring). Tritt ein Fehler auf oder dauert eine Anfrage ungewöhnlich lange, werden technische Angaben an diesen Dienst übermittelt: die Fehlermeldung und die Stelle im Programm, an der sie auftrat, die betroffene Seite, der Zeitpunkt, die Dauer der Anfrage sowie Browser und Betriebssystem.',
        'Diese Daten werden vor der Übermittlung pseudonymisiert: IP-Adressen werden gekürzt; E-Mail-Adressen, Namen, Passwörter, Bestätigungscodes und Formularinhalte werden entfernt. Der Überwachungsdienst kann Sie anhand der übermittelten Daten nicht identifizieren. Rechtsgrundlage ist Art. 6 Abs. 1 lit. f DSGVO; unser berechtigtes Interesse liegt in einem stabilen, sicheren und schnellen Dienst.',
        'Der Anbieter des Überwachungsdienstes ist unser Auftragsverarbeiter nach Art. 28 DSGVO. Er verarbeitet die Daten ausschließlich nach unseren Weisungen auf Grundlage eines Vertrags zur Auftragsverarbeitung, der ihn zu geeigneten technischen und organisatorischen Maßnahmen verpflichtet. Die Überwachungsdaten werden spätestens nach 4 Wochen (28 Tagen) gelöscht.',
      ],
    },
    {
      heading: '10. Kontaktaufnahme per Formular oder E-Mail',
      paragraphs: [
        'Wenn Sie uns über ein Kontaktformular oder per E-Mail kontaktieren, etwa über die unter „Hilfe“ genannte Support-Adresse, speichern wir Ihre Angaben: in der Regel Ihren Namen, Ihre E-Mail-Adresse, den Inhalt Ihrer Nachricht, den Zeitpunkt der Kontaktaufnahme und, sofern Sie sie angeben, Ihre Telefonnummer. Diese Daten nutzen wir ausschließlich zur Bearbeitung Ihrer Anfrage und etwaiger Anschlussfragen.',
        'Betrifft Ihre Anfrage Ihr Konto oder die Nutzung unserer Produkte, ist Rechtsgrundlage Art. 6 Abs. 1 lit. b DSGVO, im Übrigen unser berechtigtes Interesse an der Beantwortung eingehender Anfragen (Art. 6 Abs. 1 lit. f DSGVO). Wir löschen die Daten, sobald Ihre Anfrage abschließend bearbeitet ist und keine Rückfragen mehr zu erwarten sind, es sei denn, gesetzliche Aufbewahrungsfristen, etwa nach Handels- oder Steuerrecht, verpflichten uns zu einer längeren Speicherung.',
      ],
    },
    {
      heading: '11. Empfänger und Auftragsverarbeiter',
      paragraphs: [
        'Wir verkaufen Ihre personenbezogenen Daten nicht und geben sie nicht an Dritte zu deren eigenen Zwecken weiter. Innerhalb unseres Unternehmens erhalten nur diejenigen Zugriff, die ihn für den Betrieb oder die Betreuung des Dienstes benötigen.',
        'Für Hosting, E-Mail-Versand und Anwendungsüberwachung setzen wir sorgfältig ausgewählte Dienstleister ein. Sie sind Auftragsverarbeiter nach Art. 28 DSGVO, an unsere Weisungen gebunden und dürfen die Daten nicht für eigene Zwecke verwenden. Verarbeitet ein Dienstleister Daten außerhalb der Europäischen Union oder des Europäischen Wirtschaftsraums, stellen wir ein angemessenes Schutzniveau nach Art. 44 ff. DSGVO sicher, beispielsweise durch die Standardvertragsklauseln der Europäischen Kommission.',
        'An Behörden übermitteln wir Daten nur, soweit wir gesetzlich dazu verpflichtet sind.',
      ],
    },
    {
      heading: '12. Speicherdauer',
      paragraphs: [
        'Kontodaten und Passwort-Hashwerte speichern wir, solange Ihr Konto besteht. Löscht die Administration Ihrer Organisation Ihr Konto, werden auch diese Daten gelöscht.',
        'Server- und Sicherheitsprotokolle sowie Daten der Anwendungsüberwachung werden nach 4 Wochen (28 Tagen) gelöscht. Bestätigungscodes verfallen je nach Zweck nach 15 Minuten bis sieben Tagen. Kontaktanfragen löschen wir wie in Abschnitt 10 beschrieben.',
      ],
    },
    {
      heading: '13. Ihre Rechte',
      paragraphs: [
        'Sie haben das Recht auf Auskunft über die zu Ihrer Person gespeicherten Daten (Art. 15 DSGVO), auf Berichtigung unrichtiger Daten (Art. 16 DSGVO), auf Löschung (Art. 17 DSGVO), auf Einschränkung der Verarbeitung (Art. 18 DSGVO) sowie darauf, die von Ihnen bereitgestellten Daten in einem strukturierten, gängigen und maschinenlesbaren Format zu erhalten (Recht auf Datenübertragbarkeit, Art. 20 DSGVO).',
        'Widerspruchsrecht: Verarbeiten wir Ihre Daten auf Grundlage berechtigter Interessen (Art. 6 Abs. 1 lit. f DSGVO), können Sie dieser Verarbeitung aus Gründen, die sich aus Ihrer besonderen Situation ergeben, jederzeit widersprechen (Art. 21 DSGVO). Wir verarbeiten die Daten dann nicht mehr, es sei denn, wir können zwingende schutzwürdige Gründe nachweisen, die Ihre Interessen überwiegen, oder die Verarbeitung dient der Geltendmachung, Ausübung oder Verteidigung von Rechtsansprüchen.',
        'Beruht eine Verarbeitung auf Ihrer Einwilligung, können Sie diese jederzeit widerrufen (Art. 7 Abs. 3 DSGVO). Die Rechtmäßigkeit der bis zum Widerruf erfolgten Verarbeitung bleibt davon unberührt.',
        'Zudem haben Sie das Recht, sich bei einer Datenschutz-Aufsichtsbehörde zu beschweren (Art. 77 DSGVO), insbesondere in dem Mitgliedstaat Ihres gewöhnlichen Aufenthalts, Ihres Arbeitsplatzes oder des Orts des mutmaßlichen Verstoßes.',
        'Zur Ausübung Ihrer Rechte wenden Sie sich an uns oder an unseren Datenschutzbeauftragten; die Kontaktdaten finden Sie im Impressum. Eine ausschließlich automatisierte Entscheidung, die Ihnen gegenüber rechtliche Wirkung entfaltet oder Sie in ähnlicher Weise erheblich beeinträchtigt (Art. 22 DSGVO), findet nicht statt; die vorübergehende Sperre nach Fehlversuchen ist eine Sicherheitsmaßnahme, die Sie selbst aufheben können.',
      ],
    },
    {
      heading: '14. Änderungen dieser Datenschutzerklärung',
      paragraphs: [
        'Wir passen diese Datenschutzerklärung an, wenn sich der Dienst oder die Rechtslage ändert. Das Datum oben gibt den Stand der letzten Überarbeitung an. Betrifft eine Änderung bereits erhobene Daten, informieren wir Sie rechtzeitig, bevor sie wirksam wird.',
      ],
    },
  ],
};

export default policy;
