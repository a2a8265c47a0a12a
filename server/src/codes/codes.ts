import { createHash, randomBytes } from 'node:crypto';
import { VerificationType } from '@keycard/contract';
import type { CodeLifetimes } from '../config.ts';
import type { Clock } from '../store/clock.ts';
import type { Db } from '../store/database.ts';
import {
  consumeLiveCode,
  findLiveCodeByHash,
  insertLiveCode,
  type LiveCode,
  supersedeCodes,
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
 * How often a code is tried again when another of its type for the account was issued at the same
 * moment: that one is superseded and this one inserted, unless yet another came between.
 */
const ISSUE_RUNS = 3;

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
 * The account has at most one live code of a type (verification_code_one_live_idx): when another
 * request issued one meanwhile, on PostgreSQL this waits for its transaction, and if it committed,
 * supersedes its code in turn, so of two issued at once the later one is the live one.
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
  // Stryker disable next-line EqualityOperator,UpdateOperator: only a third run tells these apart, and it needs two more issues committed between this one's statements; no test makes three transactions meet so
  for (let run = 1; run <= ISSUE_RUNS; run++) {
    await supersedeCodes(db, input.accountId, [input.type], now);
    const id = await insertLiveCode(db, {
      codeHash: codeHash(code),
      accountId: input.accountId,
      verificationType: input.type,
      payload: input.payload ?? null,
      createdAt: now,
      expiresAt,
    });
    if (id !== null) return { code, id, expiresAt };
  }
  // Stryker disable next-line all: reached only as above
  throw new Error(`no live code issued: ${ISSUE_RUNS} others were issued for the account meanwhile`);
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
