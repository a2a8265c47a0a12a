import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from './unique-violation.ts';

/** PostgreSQL's error as a driver reports it, wrapped `wraps` times in errors that carry it as `cause`. */
function wrapped(code: string, wraps: number): unknown {
  let error: unknown = Object.assign(new Error('duplicate key value'), { code });
  for (let n = 0; n < wraps; n++) error = new Error(`wrapper ${n + 1}`, { cause: error });
  return error;
}

describe('recognising a unique violation (SQLSTATE 23505)', () => {
  it('finds the code on the error itself and behind any number of wrappers', () => {
    for (let wraps = 0; wraps <= 8; wraps++) expect(isUniqueViolation(wrapped('23505', wraps))).toBe(true);
  });

  it('follows a cause chain that loops back on itself once, so it cannot keep it going', () => {
    const cyclic: { cause?: unknown } = {};
    cyclic.cause = cyclic;
    expect(isUniqueViolation(cyclic)).toBe(false);
  });

  it('refuses other codes, other values and chains that end early', () => {
    expect(isUniqueViolation(wrapped('23503', 0))).toBe(false);
    expect(isUniqueViolation(wrapped('23503', 2))).toBe(false);
    expect(isUniqueViolation({ code: 23505 })).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
    expect(isUniqueViolation(null)).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
    expect(isUniqueViolation(new Error('no code', { cause: '23505' }))).toBe(false);
    expect(isUniqueViolation({ cause: null })).toBe(false);
    expect(isUniqueViolation({ cause: { cause: { code: '23505' } } })).toBe(true);
  });
});
