import { randomBytes } from 'node:crypto';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
import type { HashMeter } from '../metrics/meters.ts';
import { traced } from '../tracing/spans.ts';

/** Algorithm.Argon2id: the package's enum is an ambient const enum, which isolated modules cannot read. */
const ARGON2ID = 2 as Algorithm;

/**
 * argon2id parameters: one of OWASP's equal-strength rows, chosen by measurement on the target
 * hardware (bench/argon2-params.ts; the choice and the figures are in BENCHMARKS.md).
 */
export const ARGON2_PARAMETERS = {
  algorithm: ARGON2ID,
  memoryCost: 12_288,
  timeCost: 3,
  parallelism: 1,
} as const;

/**
 * Verified when an account is unknown or has no password, so a wrong e-mail costs exactly what a
 * wrong password costs and timing does not tell accounts apart (DESIGN §2 Login). Made with the
 * current parameters from a random secret, so it can never match and never drifts from them.
 */
let dummyHash: Promise<string> | undefined;
function theDummyHash(): Promise<string> {
  // Stryker disable next-line StringLiteral: any encoding of 32 random bytes is a secret no password equals
  dummyHash ??= hash(randomBytes(32).toString('base64url'), ARGON2_PARAMETERS);
  return dummyHash;
}

/** Checks a password against one argon2 hash string; true when it matches. */
export type HashVerifier = (storedHash: string, password: string) => Promise<boolean>;

/** The argon2 verification every password check ends in (the parameters come from the hash). */
export const verifyArgon2: HashVerifier = (storedHash, password) =>
  traced('argon2.verify', {}, () => verify(storedHash, password));

/** `verifyHash` with each verification counted and timed, its wait for a thread too (metrics). */
export function measuredVerifier(verifyHash: HashVerifier, meter: HashMeter): HashVerifier {
  return (storedHash, password) => meter.measure(() => verifyHash(storedHash, password));
}

export async function hashPassword(password: string): Promise<string> {
  return traced('argon2.hash', {}, () => hash(password.normalize('NFC'), ARGON2_PARAMETERS));
}

/**
 * Checks `password` against `storedHash` with `verifyHash`, exactly once; with no stored hash the dummy
 * is verified and the answer is always false. Never throws on a malformed stored hash (a mismatch).
 */
export async function verifyPassword(
  storedHash: string | null,
  password: string,
  verifyHash: HashVerifier = verifyArgon2,
): Promise<boolean> {
  const candidate = password.normalize('NFC');
  try {
    const matches = await verifyHash(storedHash ?? (await theDummyHash()), candidate);
    return storedHash !== null && matches;
  } catch {
    return false;
  }
}

/** True when a stored hash was made with other parameters than today's, so login re-hashes it. */
export function needsRehash(storedHash: string): boolean {
  const { memoryCost, timeCost, parallelism } = ARGON2_PARAMETERS;
  return !storedHash.startsWith(`$argon2id$v=19$m=${memoryCost},t=${timeCost},p=${parallelism}$`);
}
