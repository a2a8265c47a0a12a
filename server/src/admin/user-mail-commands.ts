import { changeEmailResult, inviteResult } from '../provisioning/user-schemas.ts';
import { cliCommand } from './cli-command.ts';
import { EMAIL_FLAG } from './user-flags.ts';

/** The user:* commands of DESIGN §5 that send mail (user-mail-operations.ts). */

function lifetime(hours: number): string {
  return hours % 24 === 0 ? `${hours / 24} days` : `${hours} hours`;
}

export const inviteCommand = cliCommand({
  name: 'user:invite',
  summary: 'mail an account without a password the invitation that sets its first one',
  details:
    'Queues the invitation (a VerifyUser link, PUBLIC_URL/resetPassword/6/…) for a local account that\n' +
    'has no password yet; opening it sets the first password. A new invitation makes earlier links\n' +
    'stop working. Refused for disabled accounts, accounts that already have a password (their owner\n' +
    'uses the forgot-password page) and accounts that sign in through their organisation.',
  flags: [EMAIL_FLAG],
  fieldFlags: { email: '--email' },
  toRequest: (flags) => ({ command: 'user:invite', input: { email: flags.value('email') ?? '' } }),
  result: inviteResult,
  format: ({ account, validHours }) =>
    `queued an invitation to ${account.email}; its link sets the first password and works for ${lifetime(validHours)}`,
});

export const changeEmailCommand = cliCommand({
  name: 'user:change-email',
  summary: "start changing an account's e-mail address; the new address confirms it",
  details:
    'Mails a confirmation link to the new address and a notice to the current one. The account keeps\n' +
    'its address until the link is opened, and then changes only if no other account has taken the\n' +
    'new address meanwhile. The new address must differ from the current one and be unused.',
  flags: [
    EMAIL_FLAG,
    {
      name: 'new-email',
      kind: 'value',
      required: true,
      placeholder: 'N',
      description: 'the address the account should move to',
    },
  ],
  fieldFlags: { email: '--email', newEmail: '--new-email' },
  toRequest: (flags) => ({
    command: 'user:change-email',
    input: { email: flags.value('email') ?? '', newEmail: flags.value('new-email') ?? '' },
  }),
  result: changeEmailResult,
  format: ({ account, newEmail, validHours }) =>
    `queued a confirmation link to ${newEmail} and a notice to ${account.email}; ` +
    `the address changes when the link is opened (within ${lifetime(validHours)})`,
});
