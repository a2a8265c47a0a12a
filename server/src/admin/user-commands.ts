import { LANGUAGES } from '@keycard/contract';
import {
  type AddUserInput,
  type AddUserResult,
  accountChangeResult,
  addUserResult,
  type SetLanguageInput,
  unlockResult,
} from '../provisioning/user-schemas.ts';
import { type CliCommand, cliCommand } from './cli-command.ts';
import { EMAIL_FLAG } from './user-flags.ts';
import { changeEmailCommand, inviteCommand } from './user-mail-commands.ts';

/** The user:* commands of DESIGN §5. */

function firstPassword({ invitation }: AddUserResult): string {
  if (invitation === 'not_needed') return ' with the given password';
  if (invitation === 'queued') return ' and queued an invitation whose link sets the first password';
  return '; no invitation was sent: its domain signs in through an organisation, so it needs no password';
}

/** --language: the language of the account's mail. */
const LANGUAGE_FLAG = {
  name: 'language',
  kind: 'value',
  placeholder: LANGUAGES.join('|'),
  description: "the language of the account's mail",
} as const;

const addUserCommand = cliCommand({
  name: 'user:add',
  summary: 'create an account with a first password from standard input, or invite it to set one',
  details:
    'Creates a local account. With --password-stdin the first password is read from standard input\n' +
    '(a pipe, or typed without echo) and must meet the password policy. Without it the account has\n' +
    'no password yet and an invitation is queued (as user:invite does) whose link sets the first one;\n' +
    'an address whose domain signs in through an organisation gets no invitation. With --language\n' +
    'every mail to the account, the invitation first, is written in it (see user:set-language).',
  flags: [
    EMAIL_FLAG,
    { name: 'name', kind: 'value', required: true, placeholder: '"First Last"', description: 'display name' },
    { name: 'password-stdin', kind: 'switch', description: 'read the first password from standard input' },
    LANGUAGE_FLAG,
  ],
  secret: { flag: 'password-stdin', field: 'password', label: 'Password' },
  fieldFlags: { email: '--email', name: '--name', password: '--password-stdin', language: '--language' },
  toRequest: (flags, password) => {
    const language = flags.value('language');
    return {
      command: 'user:add',
      input: {
        email: flags.value('email') ?? '',
        name: flags.value('name') ?? '',
        password,
        // Checked against the languages by the operation, which names the flag when it is none.
        ...(language === undefined ? {} : { language: language as AddUserInput['language'] }),
      },
    };
  },
  result: addUserResult,
  format: (result) =>
    `created account ${result.account.email} (id ${result.account.id})${firstPassword(result)}`,
});

/** A user:* command that only names the account. */
function accountCommand(
  name: 'user:expire-password' | 'user:disable' | 'user:enable',
  summary: string,
  details: string,
  done: (email: string, changed: boolean) => string,
): CliCommand {
  return cliCommand({
    name,
    summary,
    details,
    flags: [EMAIL_FLAG],
    fieldFlags: { email: '--email' },
    toRequest: (flags) => ({ command: name, input: { email: flags.value('email') ?? '' } }),
    result: accountChangeResult,
    format: ({ account, changed }) => done(account.email, changed),
  });
}

const unlockCommand = cliCommand({
  name: 'user:unlock',
  summary: "clear the account's failed sign-ins and lock",
  details: 'Clears the failure counter and lock of the e-mail address, as the unlock link in the mail does.',
  flags: [EMAIL_FLAG],
  fieldFlags: { email: '--email' },
  toRequest: (flags) => ({ command: 'user:unlock', input: { email: flags.value('email') ?? '' } }),
  result: unlockResult,
  format: ({ account, wasLocked, failuresCleared }) => {
    const cleared = failuresCleared === 1 ? '1 failed sign-in' : `${failuresCleared} failed sign-ins`;
    if (wasLocked) return `unlocked ${account.email} (cleared ${cleared})`;
    return `${account.email} was not locked; ${failuresCleared > 0 ? `cleared ${cleared}` : 'nothing to clear'}`;
  },
});

/** What --language takes to clear the account's own language. */
const REQUEST_LANGUAGE = 'request';

const setLanguageCommand = cliCommand({
  name: 'user:set-language',
  summary: "set the language of the account's mail",
  details:
    'Every mail to the account is then written in it, whoever causes it: the person, an admin, or\n' +
    `someone mistyping its password. --language ${REQUEST_LANGUAGE} clears it: each mail is then written in the\n` +
    'language of the pages the person reads when it is sent, or in English for an admin command.',
  flags: [
    EMAIL_FLAG,
    { ...LANGUAGE_FLAG, placeholder: `${LANGUAGES.join('|')}|${REQUEST_LANGUAGE}`, required: true },
  ],
  fieldFlags: { email: '--email', language: '--language' },
  toRequest: (flags) => {
    const language = flags.value('language') ?? '';
    return {
      command: 'user:set-language',
      input: {
        email: flags.value('email') ?? '',
        language: language === REQUEST_LANGUAGE ? null : (language as SetLanguageInput['language']),
      },
    };
  },
  result: accountChangeResult,
  format: ({ account, changed }) =>
    changed
      ? `set the language of ${account.email}'s mail`
      : `${account.email}'s mail already had that language`,
});

export const USER_COMMANDS: readonly CliCommand[] = [
  addUserCommand,
  accountCommand(
    'user:expire-password',
    'make the account change its password at the next sign-in',
    "After the next correct password the user is sent to choose a new one. Ends the account's sessions and grants, also when run again.",
    (email, changed) =>
      changed
        ? `${email} must change the password at the next sign-in`
        : `${email} already had to change the password at the next sign-in; its sessions were ended`,
  ),
  unlockCommand,
  accountCommand(
    'user:disable',
    'stop the account from signing in',
    'A disabled account cannot sign in until it is enabled again. Its sessions and grants end, and each relying party it signed in to is told by back-channel logout; its data and links are kept for an enable.',
    (email, changed) => (changed ? `disabled ${email}` : `${email} was already disabled`),
  ),
  accountCommand(
    'user:enable',
    'let a disabled account sign in again',
    'Undoes user:disable.',
    (email, changed) => (changed ? `enabled ${email}` : `${email} was already enabled`),
  ),
  inviteCommand,
  changeEmailCommand,
  setLanguageCommand,
];
