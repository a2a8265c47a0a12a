/**
 * Whether an error means "the database cannot be reached" rather than "this query is wrong": those
 * answer 503 (DESIGN §2) so clients retry later, and never authenticate anyone.
 */
import { errorsWithin } from './sql-state.ts';

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
/** SQLSTATEs of a server that is shutting down, starting up or full (class 08 is handled as a class). */
const SERVER_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
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

export function isDatabaseUnavailable(error: unknown): boolean {
  // drizzle wraps driver errors (DrizzleQueryError.cause); pg may wrap socket errors in AggregateError.
  for (const within of errorsWithin(error)) if (describesOutage(within)) return true;
  return false;
}
