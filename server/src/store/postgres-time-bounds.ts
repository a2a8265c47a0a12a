/**
 * How long PostgreSQL lets one of the service's statements wait and run, in milliseconds, sent with
 * each connection of the pool. Without them a row lock that a stuck transaction keeps, or a statement
 * that never ends, holds every request behind it, and then each of the pool's connections, for good:
 * the instance stops answering. With them the statement fails, and its request answers 503 with
 * Retry-After (unavailable.ts), as in an outage.
 * - `lock_timeout`: a wait for a lock (a row another transaction keeps, the advisory lock of a code's
 *   issue). A request's transactions keep their locks for milliseconds; 5 s of waiting means
 *   something holds one far longer than any request should.
 * - `statement_timeout`: a statement's whole time, its waits included. A request's statements take
 *   milliseconds; below the SPA's 30 s, after which the person's browser gives up anyway. The
 *   clean-up's batches run without it (batched-delete.ts).
 * - `idle_in_transaction_session_timeout`: a transaction left open between two statements (none of
 *   the service's waits between them for anything but the database) is ended with its connection,
 *   and its locks are let go.
 * The DATABASE_URL's query parameters of the same names replace them (config.ts checks them), e.g.
 * `?statement_timeout=30000`; 0 is none. Migrations run without the first two (migrate.ts).
 */
export const POSTGRES_TIME_BOUNDS = {
  lock_timeout: 5_000,
  statement_timeout: 15_000,
  idle_in_transaction_session_timeout: 60_000,
} as const;
