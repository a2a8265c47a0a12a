/**
 * Whether `error` carries one of `states` (PostgreSQL SQLSTATEs), as PGlite and node-postgres report
 * them: on the error itself or on a cause it wraps (drizzle's DrizzleQueryError, say).
 */
export function hasSqlState(error: unknown, states: ReadonlySet<string>): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ('code' in current && typeof current.code === 'string' && states.has(current.code)) return true;
    current = 'cause' in current ? current.cause : undefined;
  }
  return false;
}
