import { linksIn } from '../html.ts';
import type { OutboxRow } from '../outbox-repository.ts';

/** Where a message stands, as the dev mailbox shows it. */
export type MailStatus = 'sent' | 'failed' | 'retrying' | 'queued';

export function statusOf(row: OutboxRow): MailStatus {
  if (row.sentAt !== null) return 'sent';
  if (row.failedAt !== null) return 'failed';
  return row.attempts > 0 ? 'retrying' : 'queued';
}

/** One message of GET /dev/mail.json; the links are read from the text part. */
export interface MailboxEntry {
  readonly id: string;
  readonly kind: string;
  readonly to: string;
  readonly subject: string;
  readonly createdAt: string;
  readonly status: MailStatus;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly links: readonly string[];
  readonly text: string;
}

export function mailboxEntry(row: OutboxRow): MailboxEntry {
  return {
    id: row.id,
    kind: row.kind,
    to: row.recipient,
    subject: row.subject,
    createdAt: row.createdAt.toISOString(),
    status: statusOf(row),
    attempts: row.attempts,
    lastError: row.lastError,
    links: linksIn(row.textBody),
    text: row.textBody,
  };
}
