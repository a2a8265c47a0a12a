import { createHash, randomBytes } from 'node:crypto';
import { VerificationType } from '@keycard/contract';
import type { CodeLifetimes } from '../config.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import {
  consumeLiveCode,
  findLiveCodeByHash,
  insertCode,
  keepAccountOfCodes,
  type LiveCode,
  supersedeCodes,
  takeTurnIssuing,
} from './code-repository.ts';

/** The verification types a code is issued for: those that have a lifetime (config.ts). */
export type CodeType = keyof CodeLifetimes;

/**
 * The codes whose links went to the account's address: reset, expired password, unlock, invitation
 * and a change of address. Once the address changes, none mailed before may work: an address is often
 * changed because the old mailbox was lost or taken over.
 */
export const CODES_OF_AN_ADDRESS = [
  VerificationType.PasswordReset,
  VerificationType.PasswordExpired,
  VerificationType.LockedAfterTooManyFailedAttempts,
  VerificationType.VerifyUser,
  VerificationType.EmailChanged,
  VerificationType.ContactEmailChanged,
] as const;

/** Only this digest is stored: a database leak reveals no usable code. */
export function codeHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

export interface IssueCodeInput {
  accountId: string;
  type: CodeType;
  payload?: Record<string, string>;
}

/** A code just issued, with when it stops working (a mail carrying it is worthless after that). */
export interface IssuedCode {
  readonly code: string;
  /** Its row, which the mail carrying it names (an unsent mail of a code no longer live is not sent). */
  readonly id: string;
  readonly expiresAt: Date;
}

/**
 * Issues a 256-bit code bound to one account and type; older unspent codes of that type stop working
 * (a new code supersedes them). Run inside the transaction that also queues the mail carrying it.
 */
export async function issueCode(
  db: Db,
  clock: Clock,
  lifetimes: CodeLifetimes,
  input: IssueCodeInput,
): Promise<string> {
  return (await issueCodeUntil(db, clock, lifetimes, input)).code;
}

/**
 * issueCode, answering the code's row and expiry too, for the outbox row of the mail that carries it.
 * An account holds at most one live code of a type (verification_code_one_live_idx): issues of one
 * account and type take turns (takeTurnIssuing), so of two at the same moment the later supersedes the
 * earlier's code. In a transaction of its own when `db` is none, so the turn lasts until the insert.
 * The account's row is kept first (keepAccountOfCodes), so a transaction that locks the account and
 * then its codes cannot deadlock with this one.
 */
export async function issueCodeUntil(
  db: Db,
  clock: Clock,
  lifetimes: CodeLifetimes,
  input: IssueCodeInput,
): Promise<IssuedCode> {
  const lifetime = lifetimes[input.type];
  const now = await clock.now();
  const code = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + lifetime);
  const id = await db.transaction(async (tx) => {
    await keepAccountOfCodes(tx, input.accountId);
    await takeTurnIssuing(tx, input.accountId, input.type);
    await supersedeCodes(tx, input.accountId, [input.type], now);
    return insertCode(tx, {
      codeHash: codeHash(code),
      accountId: input.accountId,
      verificationType: input.type,
      payload: input.payload ?? null,
      createdAt: now,
      expiresAt,
    });
  });
  return { code, id, expiresAt };
}

/** Reads a code that is unspent, not superseded and not expired, of one of `types`; spends nothing. */
export async function findLiveCode(
  db: Db,
  clock: Clock,
  code: string,
  types: readonly VerificationType[],
): Promise<LiveCode | null> {
  const now = await clock.now();
  return findLiveCodeByHash(db, codeHash(code), types, now);
}

/**
 * Spends a live code exactly once: of concurrent callers only one gets the row back, because the
 * condition and the update are one statement.
 */
export async function consumeCode(
  db: Db,
  clock: Clock,
  code: string,
  types: readonly VerificationType[],
): Promise<LiveCode | null> {
  const now = await clock.now();
  return consumeLiveCode(db, codeHash(code), types, now);
}
