/**
 * Whether an error means "the database cannot answer now" (it cannot be reached, or a statement ran
 * out of its time) rather than "this query is wrong": those answer 503 (DESIGN §2) so clients retry
 * later, and never authenticate anyone.
 */
import { errorsWithin, hasSqlState } from './sql-state.ts';

/** What an outage's 503 asks a client to wait before trying again (Retry-After, RFC 9110 §10.2.3). */
export const RETRY_AFTER_SECONDS = 5;

/** Socket-level failures of node-postgres talking to the server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
/** lock_not_available (lock_timeout) and query_canceled (statement_timeout): a statement stopped by a time bound. */
const TIMED_OUT = ['55P03', '57014'];
const TIMED_OUT_STATES = new Set(TIMED_OUT);

/**
 * SQLSTATEs of a server that is shutting down, starting up or full (class 08 is handled as a class),
 * and of a statement that ran out of its time (POSTGRES_TIME_BOUNDS in postgres-time-bounds.ts; also an
 * administrator's pg_cancel_backend). Either way the database cannot answer now, and may shortly.
 */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300', ...TIMED_OUT]);
/** node-postgres and PGlite report these without a code. */
const MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'PGlite is closed',
];

function describesOutage(error: object): boolean {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (NETWORK_CODES.has(code) || SERVER_STATES.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return true;
  const message = 'message' in error && typeof error.message === 'string' ? error.message : '';
  return MESSAGES.some((known) => message.includes(known));
}

/** Whether the database stopped a statement for taking too long, rather than being unreachable. */
export function isDatabaseTimeout(error: unknown): boolean {
  return hasSqlState(error, TIMED_OUT_STATES);
}

export function isDatabaseUnavailable(error: unknown): boolean {
  // drizzle wraps driver errors (DrizzleQueryError.cause); pg may wrap socket errors in AggregateError.
  for (const within of errorsWithin(error)) if (describesOutage(within)) return true;
  return false;
}
