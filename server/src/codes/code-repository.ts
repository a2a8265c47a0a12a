import type { VerificationType } from '@keycard/contract';
import { and, eq, gt, inArray, isNull, lt, notInArray, sql } from 'drizzle-orm';
import { deleteInBatches } from '../store/batched-delete.ts';
import type { Db } from '../store/database.ts';
import { accounts, verificationCodes } from '../store/tables/index.ts';

/** SQL of verification codes (STYLE §6). Codes are looked up by their digest only (codes.ts). */

/** A code as the flows that spend it read it. */
export interface LiveCode {
  id: string;
  accountId: string;
  verificationType: number;
  payload: Record<string, string> | null;
}

/** A code in whatever state it is in: links that act on load stay answerable after first use. */
export interface StoredCode extends LiveCode {
  expiresAt: Date;
  consumedAt: Date | null;
  supersededAt: Date | null;
}

const liveColumns = {
  id: verificationCodes.id,
  accountId: verificationCodes.accountId,
  verificationType: verificationCodes.verificationType,
  payload: verificationCodes.payload,
};

/** Unspent, not superseded, not expired at `now`, of one of `types`. */
function isLive(codeHash: string, types: readonly VerificationType[], now: Date) {
  return and(
    eq(verificationCodes.codeHash, codeHash),
    inArray(verificationCodes.verificationType, [...types]),
    isNull(verificationCodes.consumedAt),
    isNull(verificationCodes.supersededAt),
    gt(verificationCodes.expiresAt, now),
  );
}

/**
 * Unspent codes of the account of one of `types` stop working: replaced by a newer one, or mailed to an
 * address the account no longer has. A link of theirs then says it has expired, not that it was used.
 */
export async function supersedeCodes(
  db: Db,
  accountId: string,
  types: readonly VerificationType[],
  now: Date,
): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ supersededAt: now })
    .where(
      and(
        eq(verificationCodes.accountId, accountId),
        inArray(verificationCodes.verificationType, [...types]),
        isNull(verificationCodes.consumedAt),
        isNull(verificationCodes.supersededAt),
      ),
    );
}

/**
 * Keeps the account's row from being deleted or re-keyed until the transaction ends (FOR KEY SHARE,
 * the lock the new code's row takes on it anyway), before any code row is locked: a transaction that
 * locks the account first and its codes after (a confirmed change of address, an unlock) is then
 * waited for whole, instead of each waiting for what the other holds.
 */
export async function keepAccountOfCodes(db: Db, accountId: string): Promise<void> {
  // Stryker disable next-line ObjectLiteral: only the lock is wanted, whatever the statement selects
  await db.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('key share');
}

/**
 * Makes the transactions that issue a code of `type` for the account take turns until they end, so
 * each one's superseding update sees the code the one before it committed (PostgreSQL READ
 * COMMITTED: a statement sees what committed before it began). A transaction-level advisory lock on
 * both stores; another pair of account and type that hashes alike only waits its turn too.
 */
export async function takeTurnIssuing(db: Db, accountId: string, type: VerificationType): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`code:${accountId}:${type}`}, 0))`);
}

/** Inserts a code and answers its id; a second live one of its type for the account is refused. */
export async function insertCode(db: Db, row: typeof verificationCodes.$inferInsert): Promise<string> {
  const [inserted] = await db.insert(verificationCodes).values(row).returning({ id: verificationCodes.id });
  // Stryker disable next-line all: an insert's RETURNING answers the row it wrote; the check is for the type
  if (!inserted) throw new Error('verification code insert returned no row');
  return inserted.id;
}

/** Reads a live code; spends nothing. */
export async function findLiveCodeByHash(
  db: Db,
  codeHash: string,
  types: readonly VerificationType[],
  now: Date,
): Promise<LiveCode | null> {
  const [row] = await db
    .select(liveColumns)
    .from(verificationCodes)
    .where(isLive(codeHash, types, now))
    .limit(1);
  return row ?? null;
}

/**
 * Spends a live code exactly once: of concurrent callers only one gets the row back, because the
 * condition and the update are one statement.
 */
export async function consumeLiveCode(
  db: Db,
  codeHash: string,
  types: readonly VerificationType[],
  now: Date,
): Promise<LiveCode | null> {
  const [row] = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(isLive(codeHash, types, now))
    .returning(liveColumns);
  return row ?? null;
}

/** The code of one of `types`, spent or not, expired or not; null when there is none. */
export async function findCodeByHash(
  db: Db,
  codeHash: string,
  types: readonly VerificationType[],
): Promise<StoredCode | null> {
  const [row] = await db
    .select({
      ...liveColumns,
      expiresAt: verificationCodes.expiresAt,
      consumedAt: verificationCodes.consumedAt,
      supersededAt: verificationCodes.supersededAt,
    })
    .from(verificationCodes)
    .where(
      and(eq(verificationCodes.codeHash, codeHash), inArray(verificationCodes.verificationType, [...types])),
    )
    .limit(1);
  return row ?? null;
}

/** What a claim of a code's first use found: see claimFirstUse. */
export type FirstUse = 'claimed' | 'used' | 'dead';

/**
 * Marks a code used if it is still live. 'claimed' for exactly one caller, the first (condition and
 * update are one statement, so races agree); 'used' when another caller claimed it first; 'dead' when
 * it expired, was superseded or was deleted since the caller read it.
 */
export async function claimFirstUse(db: Db, id: string, now: Date): Promise<FirstUse> {
  const claimed = await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(verificationCodes.id, id),
        isNull(verificationCodes.consumedAt),
        isNull(verificationCodes.supersededAt),
        gt(verificationCodes.expiresAt, now),
      ),
    )
    .returning({ id: verificationCodes.id });
  if (claimed.length === 1) return 'claimed';
  // A statement of its own, so on PostgreSQL it sees what the transaction it waited for committed.
  const [row] = await db
    .select({ consumedAt: verificationCodes.consumedAt })
    .from(verificationCodes)
    .where(eq(verificationCodes.id, id));
  // Stryker disable next-line OptionalChaining: a live code's row goes only with its account, which its callers hold
  return row?.consumedAt ? 'used' : 'dead';
}

/** Spends every unspent code of the account of one of `types`. */
export async function spendCodes(
  db: Db,
  accountId: string,
  types: readonly VerificationType[],
  now: Date,
): Promise<void> {
  await db
    .update(verificationCodes)
    .set({ consumedAt: now })
    .where(
      and(
        eq(verificationCodes.accountId, accountId),
        inArray(verificationCodes.verificationType, [...types]),
        isNull(verificationCodes.consumedAt),
      ),
    );
}

/**
 * Deletes codes that expired before `before`, except those of `kept` types: no link of theirs can do
 * anything any more, and a new-address code carries the address it was for. Answers how many went.
 */
export async function deleteCodesExpiredBefore(
  db: Db,
  before: Date,
  kept: readonly VerificationType[],
  signal?: AbortSignal,
): Promise<number> {
  return deleteInBatches(
    db,
    verificationCodes,
    sql`${lt(verificationCodes.expiresAt, before)} and ${notInArray(verificationCodes.verificationType, [...kept])}`,
    { signal },
  );
}
