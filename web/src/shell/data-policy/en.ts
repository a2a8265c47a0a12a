import type { DataPolicyText } from './types.ts';

/** English data policy of the sign-in service (SPEC §1), dated 29.05.2018. */
const policy: DataPolicyText = {
  title: 'Data policy',
  dated: '29 May 2018',
  sections: [
    {
      heading: '1. About this policy',
      paragraphs: [
        'Keycard is the sign-in and account-recovery service of our hospitality-planning product. You use it to sign in, to reset a forgotten or expired password, to unlock an account, to confirm a changed e-mail address and to sign out. This policy explains which personal data we process when you use Keycard, why, on which legal basis and for how long, and which rights you have.',
        'We process personal data in accordance with the General Data Protection Regulation (GDPR) and the data-protection law that supplements it. The planning product itself, which you reach after signing in, has its own data policy, which covers the data you enter there.',
      ],
    },
    {
      heading: '2. Controller and data protection officer',
      paragraphs: [
        'The controller within the meaning of Art. 4(7) GDPR is the company that operates Keycard. Its name, postal address, telephone number, e-mail address and legal representative are listed in the imprint, which you can open from the footer of every page.',
        'We have appointed a data protection officer. You can reach them at the contact details given in the imprint; please mark your letter or e-mail "For the attention of the data protection officer".',
      ],
    },
    {
      heading: '3. Which data we process',
      paragraphs: [
        'Account data: your e-mail address, which serves as your user name, and your name, which we use to greet you. Your account is created by the administrator of the planning product you use.',
        'Your password: we never store your password in readable form. When you choose a password, we store only a one-way hash of it, computed with a modern, deliberately slow procedure and a random salt. The original password cannot be recovered from this hash, not even by us. To prevent you from re-using recent passwords, we keep the hashes of your last few passwords, never the passwords themselves.',
        'Connection and usage data: each time you use Keycard, your browser sends us technical information that is needed to deliver the pages. This includes your IP address, the date and time of the request, the page requested, the browser type and version, the operating system and your preferred language.',
        'Sign-in and security events: for every successful or failed sign-in, lock, unlock, password reset, change of e-mail address and sign-out we record the time, the type of event, the account concerned, the IP address and the outcome. We never record passwords, verification codes or session identifiers in these records.',
        'Verification codes: links for resetting a password, unlocking an account or confirming a new e-mail address contain a random code. We store only a hash of this code together with its type and expiry time.',
      ],
    },
    {
      heading: '4. Purposes and legal bases',
      paragraphs: [
        'Art. 6(1)(b) GDPR (performance of a contract): we process your account data, your password hash and the verification codes to sign you in to the planning product, to keep you signed in for the session, to sign you out and to let you recover access to your account by resetting your password, unlocking your account or confirming a new e-mail address.',
        'Art. 6(1)(c) GDPR (legal obligation): we process personal data where the law requires it, in particular to keep our systems secure in line with Art. 32 GDPR, to answer requests from data subjects and to comply with statutory retention obligations and lawful requests from authorities.',
        'Art. 6(1)(f) GDPR (legitimate interests): we keep server and security logs and use an application-monitoring service. Our legitimate interests are to protect your account and our systems against misuse, such as attempts to guess passwords, to detect and investigate attacks, and to find and correct technical faults quickly. We have weighed these interests against yours and keep the data to the minimum needed, for a short time only.',
        'Art. 6(1)(a) GDPR (consent): the sign-in service does not depend on your consent. Should we ever ask for your consent for a particular purpose, we will say so clearly at that point, and you may withdraw it at any time with effect for the future.',
      ],
    },
    {
      heading: '5. Signing in and protecting your account',
      paragraphs: [
        'Signing in takes two steps. First you enter your e-mail address; from its domain we find out whether your organisation signs in through its own identity provider, in which case we forward you there together with your e-mail address. Otherwise you enter your password, which is transmitted in encrypted form and compared with the stored hash.',
        'To protect your account against attempts to guess the password, we count failed sign-in attempts. After several failed attempts in a row, sign-in is temporarily locked, and we send an e-mail with an unlock link to the address of the account. Our answers are worded so that they do not reveal whether an account exists for a given e-mail address.',
        'All connections to Keycard are encrypted. Only the staff who operate the service have access to our systems, and they are bound to confidentiality.',
      ],
    },
    {
      heading: '6. E-mails for account recovery',
      paragraphs: [
        'We send you e-mails only where the service needs them: a link to reset your password when you request one, a link to unlock your account after it has been locked, a link to confirm a new e-mail address, an invitation to set your first password, and short notices when your password or e-mail address has changed, so that you notice any change you did not make yourself.',
        'For this purpose we process your e-mail address, your name and the link with its verification code. Each link is valid only for a limited time and can be used only once; a newer link replaces older ones of the same kind. We send these e-mails through a mail server operated for us. The legal basis is Art. 6(1)(b) GDPR. We do not send newsletters or advertising from this service.',
      ],
    },
    {
      heading: '7. Server and security logs',
      paragraphs: [
        'Our servers record every request in log files, and the security events described in section 3 are written to a security log. We need these records to run the service reliably, to fend off attacks and misuse, and to investigate incidents. The legal basis is Art. 6(1)(f) GDPR.',
        'We keep server and security logs for 4 weeks (28 days). After that they are deleted automatically. Only if a specific security incident must be investigated do we keep the entries concerned for longer, and only until the investigation is complete.',
        'We do not combine log data with other sources or use it to build profiles.',
      ],
    },
    {
      heading: '8. Cookies',
      paragraphs: [
        'Keycard uses only cookies that are strictly necessary to provide the service you have asked for. A session cookie keeps you signed in while you move between our products and ends your sign-in when you sign out or when the session expires. An anti-forgery cookie protects the forms against cross-site request forgery, in which another website tries to send requests on your behalf. Further short-lived cookies hold the state of a sign-in that is in progress.',
        'These cookies contain only random identifiers, cannot be read by scripts and are protected against misuse by other websites. They are deleted when the session or sign-in they belong to ends.',
        'We do not use cookies or similar techniques for tracking, analytics or advertising. Because all of our cookies are strictly necessary, we do not ask for your consent to them. You can block or delete cookies in your browser at any time, but without them you cannot sign in.',
      ],
    },
    {
      heading: '9. Application monitoring',
      paragraphs: [
        'To find errors and performance problems quickly, we use an application-monitoring service. When an error occurs or a request is unusually slow, technical information is sent to it: the error message and where it occurred, the page concerned, the time, the duration of the request, and the browser and operating system used.',
        'This data is pseudonymised before it is sent: IP addresses are shortened, and e-mail addresses, names, passwords, verification codes and form contents are removed. The monitoring service cannot identify you from what it receives. The legal basis is Art. 6(1)(f) GDPR; our legitimate interest is a stable, secure and fast service.',
        'The provider of the monitoring service acts as our processor under Art. 28 GDPR. It processes the data only on our instructions and under a data-processing agreement that obliges it to take appropriate technical and organisational security measures. Monitoring data is deleted after 4 weeks (28 days) at the latest.',
      ],
    },
    {
      heading: '10. Contact by form or e-mail',
      paragraphs: [
        'If you contact us through a contact form or by e-mail, for example at the support address shown under "Help", we store what you give us: usually your name, your e-mail address, your message, the time of contact and, if you provide it, your telephone number. We use this only to handle your request and any follow-up questions.',
        'If your request concerns your account or the use of our products, the legal basis is Art. 6(1)(b) GDPR; otherwise it is our legitimate interest in answering the enquiries we receive (Art. 6(1)(f) GDPR). We delete this data once your request has been dealt with in full and no further questions are to be expected, unless statutory retention periods, for example under commercial or tax law, require us to keep it for longer.',
      ],
    },
    {
      heading: '11. Recipients and processors',
      paragraphs: [
        'We do not sell your personal data or pass it on to third parties for their own purposes. Within our company, only those who need your data to provide or support the service have access to it.',
        'We use carefully selected providers for hosting, for sending e-mails and for application monitoring. They act as processors under Art. 28 GDPR, are bound by our instructions and may not use the data for their own purposes. Where a provider processes data outside the European Union or the European Economic Area, we ensure an adequate level of protection under Art. 44 et seq. GDPR, for example through the standard contractual clauses of the European Commission.',
        'We disclose data to public authorities only where we are legally obliged to do so.',
      ],
    },
    {
      heading: '12. How long we keep your data',
      paragraphs: [
        'Account data and password hashes are kept for as long as your account exists. When the administrator of your organisation deletes your account, this data is deleted as well.',
        'Server and security logs, as well as application-monitoring data, are deleted after 4 weeks (28 days). Verification codes expire after a short time, between 15 minutes and seven days depending on their purpose. Contact requests are deleted as described in section 10.',
      ],
    },
    {
      heading: '13. Your rights',
      paragraphs: [
        'You have the right to obtain information about the personal data we hold about you (Art. 15 GDPR), to have inaccurate data rectified (Art. 16 GDPR), to have your data erased (Art. 17 GDPR), to have its processing restricted (Art. 18 GDPR) and to receive the data you have provided to us in a structured, commonly used and machine-readable format (data portability, Art. 20 GDPR).',
        'Right to object: where we process your data on the basis of our legitimate interests (Art. 6(1)(f) GDPR), you have the right to object at any time, on grounds relating to your particular situation (Art. 21 GDPR). We will then stop processing the data unless we can demonstrate compelling legitimate grounds that override your interests, or need it to establish, exercise or defend legal claims.',
        'Where processing is based on your consent, you may withdraw that consent at any time (Art. 7(3) GDPR). The withdrawal does not affect the lawfulness of the processing carried out before it.',
        'You also have the right to lodge a complaint with a data-protection supervisory authority (Art. 77 GDPR), in particular in the EU member state of your habitual residence, your place of work or the place of the alleged infringement.',
        'To exercise your rights, contact us or our data protection officer using the details in the imprint. We do not make decisions based solely on automated processing that produce legal effects concerning you or similarly significantly affect you (Art. 22 GDPR); the temporary lock after failed sign-in attempts is a security measure that you can lift yourself.',
      ],
    },
    {
      heading: '14. Changes to this policy',
      paragraphs: [
        'We update this policy when the service or the law changes. The date at the top shows when it was last revised. If a change affects data we have already collected, we will inform you in good time before it takes effect.',
      ],
    },
  ],
};

export default policy;
