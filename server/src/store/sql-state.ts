/**
 * Whether `error` carries one of `states` (PostgreSQL SQLSTATEs), as PGlite and node-postgres report
 * them: on the error itself or on a cause it wraps (drizzle's DrizzleQueryError, say). A chain of
 * causes that loops back on itself is followed once.
 */
export function hasSqlState(error: unknown, states: ReadonlySet<string>): boolean {
  const seen = new Set<object>();
  let current = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const { code, cause } = current as { code?: unknown; cause?: unknown };
    // Stryker disable next-line ConditionalExpression: a set of strings has no other value; the check is for the type
    if (typeof code === 'string' && states.has(code)) return true;
    current = cause;
  }
  return false;
}
