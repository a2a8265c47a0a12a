import { BAD_CHARACTER_MESSAGE } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InputError } from './input-error.ts';
import { parseInput } from './parse-input.ts';

/** A schema that looks at nothing: the refusal of a bad character must not depend on the schema. */
const anything = z.unknown();

function refusalOf(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('parseInput refuses bad characters before the schema', () => {
  it('names the dotted path in a part of a request', () => {
    const error = refusalOf(() => parseInput(anything, { a: [{ b: 'x\u0000' }] }, 'body'));
    expect(error.field).toBe('a.0.b');
    expect(error.path).toEqual(['a', 0, 'b']);
    expect(error.message).toBe(`Invalid a.0.b: ${BAD_CHARACTER_MESSAGE}`);
  });

  it('names the part when the whole part is a bad string', () => {
    const error = refusalOf(() => parseInput(anything, '\ud800', 'query'));
    expect(error.field).toBe('query');
  });

  it('names the top-level field of an operation’s input and says only what is wrong', () => {
    const error = refusalOf(() => parseInput(anything, { jwks: { keys: [{ x: '\u007f' }] } }));
    expect(error.field).toBe('jwks');
    expect(error.path).toEqual(['jwks', 'keys', 0, 'x']);
    expect(error.message).toBe(BAD_CHARACTER_MESSAGE);
  });

  it('comes first, even where the schema would refuse the value for another reason', () => {
    const schema = z.strictObject({ email: z.email() });
    expect(refusalOf(() => parseInput(schema, { email: 'no\u0000', extra: 1 }, 'body')).field).toBe('email');
    expect(parseInput(schema, { email: 'ada@example.com' }, 'body')).toEqual({ email: 'ada@example.com' });
  });
});
