import { describe, expect, it } from 'vitest';
import { hasSqlState, isUniqueViolation } from './sql-state.ts';

const DEADLOCK = new Set(['40P01']);

/** An error as node-postgres or PGlite gives one: a message and a SQLSTATE in `code`. */
const databaseError = (code: string) => Object.assign(new Error('from the database'), { code });

describe('hasSqlState', () => {
  it('finds the state on the error itself or on any cause it wraps', () => {
    expect(hasSqlState(databaseError('40P01'), DEADLOCK)).toBe(true);
    const wrapped = new Error('Failed query', { cause: databaseError('40P01') });
    expect(hasSqlState(new Error('outer', { cause: wrapped }), DEADLOCK)).toBe(true);
    // pg gathers the errors of several attempts in an AggregateError.
    expect(hasSqlState(new AggregateError([new Error('first'), databaseError('40P01')]), DEADLOCK)).toBe(
      true,
    );
  });

  it('answers false for another state, a code that is no string, no code, or no error at all', () => {
    expect(hasSqlState(new Error('x', { cause: databaseError('23505') }), DEADLOCK)).toBe(false);
    expect(hasSqlState(Object.assign(new Error('x'), { code: 40_001 }), new Set(['40001']))).toBe(false);
    expect(hasSqlState(new Error('plain'), DEADLOCK)).toBe(false);
    for (const nothing of [undefined, null, '40P01', 40]) expect(hasSqlState(nothing, DEADLOCK)).toBe(false);
  });

  it('stops at a cause that is null, and follows a chain that loops back on itself only once', () => {
    expect(hasSqlState(new Error('x', { cause: null }), DEADLOCK)).toBe(false);
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.assign(first, { cause: second });
    expect(hasSqlState(first, DEADLOCK)).toBe(false);
    Object.assign(second, { code: '40P01' });
    expect(hasSqlState(first, DEADLOCK)).toBe(true);
  });
});

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
