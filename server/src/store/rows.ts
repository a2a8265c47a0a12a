/**
 * Rows of a raw `db.execute` result. Both drivers (PGlite and node-postgres) answer `{ rows }`;
 * drizzle's driver-neutral type cannot say so, hence this one checked conversion.
 */
export function rowsOf<Row>(result: unknown): Row[] {
  if (typeof result === 'object' && result !== null && 'rows' in result && Array.isArray(result.rows)) {
    return result.rows as Row[];
  }
  throw new Error('unexpected query result shape');
}
