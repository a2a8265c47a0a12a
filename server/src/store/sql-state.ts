/**
 * Every error `error` carries, itself first: the causes it wraps (drizzle's DrizzleQueryError, say)
 * and the members of an AggregateError (pg's socket errors), each once, so a chain that loops back
 * on itself ends.
 */
export function* errorsWithin(error: unknown): Generator<object> {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    yield current;
    // No cause pushes undefined, which the next turn skips.
    pending.push((current as { cause?: unknown }).cause);
    if (current instanceof AggregateError) pending.push(...current.errors);
  }
}

/**
 * Whether `error` carries one of `states` (PostgreSQL SQLSTATEs), as PGlite and node-postgres report
 * them, on itself or on an error within it.
 */
export function hasSqlState(error: unknown, states: ReadonlySet<string>): boolean {
  for (const within of errorsWithin(error)) {
    const { code } = within as { code?: unknown };
    // Stryker disable next-line ConditionalExpression: a set of strings has no other value; the check is for the type
    if (typeof code === 'string' && states.has(code)) return true;
  }
  return false;
}

/** PostgreSQL's unique_violation. */
const UNIQUE_VIOLATION = new Set(['23505']);

/**
 * Whether a unique index refused the statement: it settles the races the reads before a write cannot
 * (an address taken, an upstream identity bound, at the same moment by another request).
 */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, UNIQUE_VIOLATION);
}
