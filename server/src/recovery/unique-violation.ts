import { hasSqlState } from '../store/sql-state.ts';

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = new Set(['23505']);

export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, UNIQUE_VIOLATION);
}
