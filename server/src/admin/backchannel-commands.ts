import { type FailedLogoutRow, failedLogoutsResult } from '../provisioning/backchannel-schemas.ts';
import { type CliCommand, cliCommand } from './cli-command.ts';

/** Text from the queue shown on a terminal: control characters (escape sequences) become spaces. */
function printable(text: string): string {
  return text.replace(/\p{Cc}/gu, ' ');
}

function tokens(n: number): string {
  return `${n} failed logout token${n === 1 ? '' : 's'}`;
}

function describeRow(logout: FailedLogoutRow): string {
  return [
    logout.id,
    `  client      ${printable(logout.clientId)}`,
    `  attempts    ${logout.attempts}`,
    `  last error  ${printable(logout.lastError ?? '(none recorded)')}`,
    `  failed at   ${logout.failedAt} (session ended ${logout.createdAt})`,
  ].join('\n');
}

function listing(rows: readonly FailedLogoutRow[]): string {
  if (rows.length === 0) return 'no failed logout tokens';
  const heading = `${tokens(rows.length)}, most recent failure first (backchannel:failed --retry sends them again):`;
  return [heading, ...rows.map((row) => `\n${describeRow(row)}`)].join('\n');
}

function retried(rows: readonly FailedLogoutRow[]): string {
  if (rows.length === 0) return 'no failed logout tokens to retry';
  return [
    `made ${tokens(rows.length)} due again; the service posts them within 5 seconds:`,
    ...rows.map((row) => `  ${row.id}  to ${printable(row.clientId)}`),
  ].join('\n');
}

/** backchannel:failed: the back-channel logout counterpart of mail:failed. */
export const BACKCHANNEL_COMMANDS: readonly CliCommand[] = [
  cliCommand({
    name: 'backchannel:failed',
    summary: 'list back-channel logout tokens the worker gave up on, or post them again with --retry',
    details:
      'Lists the logout tokens (OpenID Connect Back-Channel Logout) that could not be posted to a\n' +
      "relying party's back-channel logout URI in 10 attempts over about an hour, or whose client no\n" +
      'longer listens: id, client, attempts, last error and when. Who signed out is never shown.\n' +
      'With --retry they are due again with a fresh retry budget; --id retries only that one.',
    flags: [
      { name: 'retry', kind: 'switch', description: 'make the failed logout tokens due again' },
      { name: 'id', kind: 'value', placeholder: 'ID', description: 'with --retry: only this one' },
    ],
    fieldFlags: { retry: '--retry', id: '--id' },
    toRequest: (flags) => {
      const id = flags.value('id');
      return {
        command: 'backchannel:failed',
        input: { retry: flags.has('retry'), ...(id === undefined ? {} : { id }) },
      };
    },
    result: failedLogoutsResult,
    format: (result) => (result.retried ? retried(result.logouts) : listing(result.logouts)),
  }),
];
