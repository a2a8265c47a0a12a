import type { MailTexts } from './mail-texts.ts';

/**
 * English mail. Security wording: link mails say the link expires and may be ignored by someone who
 * did not ask; notices name the support address for someone who did not make the change.
 */
export const en: MailTexts = {
  common: {
    greeting: 'Hello {userName},',
    linkHint: 'If the button does not work, copy this address into your browser:',
    footer:
      'This message was sent automatically by {product}; please do not reply to it. If you need help, write to {supportEmail}.',
  },
  kinds: {
    password_reset: {
      subject: 'Reset your {product} password',
      intro: [
        'We received a request to reset the password of your {product} account. You can choose a new password with the link below.',
      ],
      action: 'Choose a new password',
      outro: [
        'For your security the link expires after a short time and can be used only once. If it has expired, you can request a new one on the sign-in page.',
        'If you did not ask for a new password, you can ignore this e-mail. Your password stays as it is.',
      ],
    },
    unlock: {
      subject: 'Your {product} account was locked',
      intro: [
        'Your {product} account was locked after several unsuccessful sign-in attempts. You can unlock it with the link below.',
      ],
      action: 'Unlock my account',
      outro: [
        'For your security the link expires after a short time.',
        'If you did not try to sign in, you can ignore this e-mail; your password has not been changed. If you think someone else is trying to use your account, please write to {supportEmail}.',
      ],
    },
    invitation: {
      subject: 'Your {product} account is ready',
      intro: [
        'An account has been set up for you in {product}. To start, please choose your password with the link below.',
      ],
      action: 'Choose your password',
      outro: [
        'The link expires after some days. If it has expired, please ask the person who invited you for a new invitation.',
        'If you did not expect this invitation, you can ignore this e-mail.',
      ],
    },
    email_change_confirm: {
      subject: 'Confirm your new e-mail address for {product}',
      intro: [
        'Please confirm that {newEmail} is the new e-mail address of your {product} account. Until you confirm it, you keep signing in with your previous address.',
      ],
      action: 'Confirm my new address',
      outro: [
        'For your security the link expires after a while.',
        'If you did not ask for this change, you can ignore this e-mail. The address of the account stays as it is.',
      ],
    },
    email_change_notice: {
      subject: 'The e-mail address of your {product} account is changing',
      intro: [
        'The e-mail address of your {product} account is being changed to {newEmail}. Once the change is confirmed, you sign in with the new address and messages about your account go there.',
      ],
      outro: [
        'If you did not ask for this change, please write to {supportEmail} right away so that we can protect your account.',
      ],
    },
    email_changed: {
      subject: 'The e-mail address of your {product} account was changed',
      intro: [
        'The e-mail address of your {product} account was changed to {newEmail}. From now on you sign in with the new address, and messages about your account go there; links sent to this address before no longer work.',
      ],
      outro: [
        'If you did not ask for this change, please write to {supportEmail} right away so that we can protect your account.',
      ],
    },
    password_expired: {
      subject: 'Please choose a new {product} password',
      intro: [
        'Your {product} password has expired. The next time you sign in, enter your current password as usual; you will then be asked to choose a new one.',
      ],
      outro: [
        'If you do not recognise this, please write to {supportEmail}. We never ask for your password by e-mail.',
      ],
    },
    password_changed: {
      subject: 'Your {product} password was changed',
      intro: [
        'The password of your {product} account has just been changed. If that was you, there is nothing more to do.',
      ],
      outro: [
        'If you did not change your password, please write to {supportEmail} right away so that we can protect your account.',
      ],
    },
    federated_account: {
      subject: 'How you sign in to {product}',
      intro: [
        'We received a request to reset the password of your {product} account. Your account signs in through your organisation ({providerName}), so it has no password of its own in {product}.',
        'To sign in, enter your e-mail address on the {product} sign-in page; you will be taken to your organisation’s sign-in. If that does not work, please ask your organisation’s IT support.',
      ],
      outro: ['If you did not ask to reset a password, you can ignore this e-mail.'],
    },
  },
};
