import { sql } from 'drizzle-orm';
import { codeHash } from '../../src/codes/codes.ts';
import type { Db } from '../../src/store/database.ts';
import { rowsOf } from '../../src/store/rows.ts';
import type { SmtpSink } from '../mail-sink.ts';

/**
 * What the fleet's database says against what the simulated people and the SMTP server saw: every
 * queued message delivered once, every used code spent once.
 */

export interface MailAccount {
  /** Rows of the outbox: every message any instance queued. */
  readonly queued: number;
  /** Rows marked sent. */
  readonly sent: number;
  /** Rows given up (none expected). */
  readonly failed: number;
  /**
   * Unsent rows still under a lease: a worker claimed them and died (SIGKILL) before marking them
   * sent; the lease lapses after WORKER_TIMING.leaseMs and another worker sends them then.
   */
  readonly leasedByTheDead: number;
  /** Messages the SMTP server received. */
  readonly received: number;
  /** Outbox rows received more than once (by Message-ID, which is the row's id). */
  readonly receivedTwice: number;
  /** Rows marked sent that never arrived. */
  readonly sentNotReceived: number;
  /** Messages received that are no row of the outbox. */
  readonly receivedUnknown: number;
}

interface OutboxRow {
  id: string;
  sent: boolean;
  failed: boolean;
  leased: boolean;
}

async function outboxRows(db: Db): Promise<OutboxRow[]> {
  return rowsOf<OutboxRow>(
    await db.execute(sql`
      select id, sent_at is not null as sent, failed_at is not null as failed,
             coalesce(locked_until > now(), false) as leased
      from mail_outbox`),
  );
}

/** Unsent messages some worker holds a lease on right now (taken at a kill: the dead worker's are among them). */
export async function leasedMessages(db: Db): Promise<Set<string>> {
  const rows = await outboxRows(db);
  return new Set(rows.filter((row) => !row.sent && row.leased).map((row) => row.id));
}

/**
 * Waits (polling) until every message is sent, given up, or leased by a worker that was killed (one of
 * `heldByTheDead`): a live worker's send in progress finishes first.
 */
async function outboxSettled(db: Db, heldByTheDead: ReadonlySet<string>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await outboxRows(db);
    if (rows.every((row) => row.sent || row.failed || (row.leased && heldByTheDead.has(row.id)))) return rows;
    if (Date.now() > deadline) throw new Error('the outbox still has messages due or being sent');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The SMTP server's count beside the outbox's, once the outbox has settled (workers poll every 5 s).
 * `heldByTheDead`: the messages leased at the moment an instance was killed (leasedMessages).
 */
export async function accountForMail(
  db: Db,
  sink: SmtpSink,
  heldByTheDead: ReadonlySet<string>,
): Promise<MailAccount> {
  const rows = await outboxSettled(db, heldByTheDead, 20_000);
  // The last message marked sent may still be on its way through the sink's parser.
  await sink.waitFor(rows.filter((row) => row.sent).length, 5_000).catch(() => undefined);
  const deliveries = new Map<string, number>();
  for (const mail of sink.received) {
    const id = /^<([^@>]+)@/.exec(mail.parsed.messageId ?? '')?.[1] ?? '';
    deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
  }
  const known = new Set(rows.map((row) => row.id));
  return {
    queued: rows.length,
    sent: rows.filter((row) => row.sent).length,
    failed: rows.filter((row) => row.failed).length,
    leasedByTheDead: rows.filter((row) => !row.sent && row.leased).length,
    received: sink.received.length,
    receivedTwice: [...deliveries.values()].filter((count) => count > 1).length,
    sentNotReceived: rows.filter((row) => row.sent && !deliveries.has(row.id)).length,
    receivedUnknown: [...deliveries.keys()].filter((id) => !known.has(id)).length,
  };
}

export interface CodeAccount {
  /** Codes the database holds as spent: used, or spent with a reset of their account. */
  readonly spent: number;
  /** Codes a person used with success that the database does not hold as spent (none expected). */
  readonly usedNotSpent: number;
  /** Unlocks the audit trail records: one per unlock code that worked, however often it was opened. */
  readonly unlocksRecorded: number;
}

export async function accountForCodes(db: Db, used: readonly string[]): Promise<CodeAccount> {
  const [unlocks] = rowsOf<{ count: number }>(
    await db.execute(
      sql`select count(*)::int as count from audit_event where event = 'unlock' and outcome = 'success'`,
    ),
  );
  const spent = rowsOf<{ code_hash: string }>(
    await db.execute(sql`select code_hash from verification_code where consumed_at is not null`),
  ).map((row) => row.code_hash);
  const hashes = new Set(spent);
  return {
    spent: spent.length,
    usedNotSpent: used.filter((code) => !hashes.has(codeHash(code))).length,
    unlocksRecorded: unlocks?.count ?? 0,
  };
}
