import { type FailedMailRow, failedMailResult } from '../provisioning/mail-schemas.ts';
import { type CliCommand, cliCommand } from './cli-command.ts';

/** Text from the outbox shown on a terminal: control characters (escape sequences) become spaces. */
function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, ' ');
}

function messages(n: number): string {
  return `${n} failed message${n === 1 ? '' : 's'}`;
}

function describeRow(mail: FailedMailRow): string {
  return [
    mail.id,
    `  to          ${printable(mail.recipient)}`,
    `  subject     ${printable(mail.subject)}`,
    `  kind        ${printable(mail.kind)}`,
    `  attempts    ${mail.attempts}`,
    `  last error  ${printable(mail.lastError ?? '(none recorded)')}`,
    `  failed at   ${mail.failedAt} (queued ${mail.createdAt})`,
  ].join('\n');
}

function listing(rows: readonly FailedMailRow[]): string {
  if (rows.length === 0) return 'no failed mail';
  const heading = `${messages(rows.length)}, most recent failure first (mail:failed --retry sends again those whose links still work):`;
  return [heading, ...rows.map((row) => `\n${describeRow(row)}`)].join('\n');
}

function retried(rows: readonly FailedMailRow[]): string {
  if (rows.length === 0) return 'no failed mail to retry';
  return [
    `made ${messages(rows.length)} due again; the mail worker sends them at its next pass:`,
    ...rows.map((row) => `  ${row.id}  to ${printable(row.recipient)}`),
  ].join('\n');
}

/** mail:failed of DESIGN §5. */
export const MAIL_COMMANDS: readonly CliCommand[] = [
  cliCommand({
    name: 'mail:failed',
    summary: 'list mail the worker gave up on, or send it again with --retry',
    details:
      'Lists the messages that failed for good (retries used up, or refused by the mail server): id,\n' +
      'recipient, subject, attempts, last error and when. Bodies are never shown: they carry live links.\n' +
      'With --retry those messages are due again with a fresh retry budget, except those whose link has\n' +
      'expired: they stay failed, since sending them would deliver a dead link.',
    flags: [{ name: 'retry', kind: 'switch', description: 'make the failed messages due again' }],
    fieldFlags: { retry: '--retry' },
    toRequest: (flags) => ({ command: 'mail:failed', input: { retry: flags.has('retry') } }),
    result: failedMailResult,
    format: (result) => (result.retried ? retried(result.messages) : listing(result.messages)),
  }),
];
