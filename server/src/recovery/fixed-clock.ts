import { type Clock, clockReading } from '../store/clock.ts';

/**
 * A clock stopped at a reading taken before a transaction. Inside a transaction the service's clock
 * must not be asked: it queries the database outside the transaction, which embedded PGlite (one
 * connection) cannot serve until the transaction ends.
 */
export function fixedClock(at: Date): Clock {
  return clockReading(() => at.getTime());
}
