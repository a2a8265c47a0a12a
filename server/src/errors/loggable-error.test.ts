import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { loggableError, loggableMessage, loggableReason, loggableReport } from './loggable-error.ts';

const TOKEN = 'LIVE-RefreshToken-x9Qw';

/** A driver's error as pg gives it: a SQLSTATE, and a detail naming the key's value. */
function driverError(message: string, fields: Record<string, string>): Error {
  return Object.assign(new Error(message), fields);
}

function failedLookup(cause: Error): Error {
  return new DrizzleQueryError(
    'select "payload" from "oidc_payload" where ("kind" = $1 and "id" = $2)',
    ['RefreshToken', TOKEN],
    cause,
  );
}

describe('errors as the log shows them (DESIGN §2: never codes or session ids)', () => {
  it("keeps a failed statement and the driver's reason, never the statement's values", () => {
    const error = failedLookup(driverError('Connection terminated unexpectedly', { code: 'ECONNRESET' }));
    expect(error.message).toContain(TOKEN);
    const logged = loggableError(error);
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
    expect(logged).toMatchObject({
      type: 'DrizzleQueryError',
      message: 'Failed query: select "payload" from "oidc_payload" where ("kind" = $1 and "id" = $2)',
      cause: { type: 'Error', message: 'Connection terminated unexpectedly', code: 'ECONNRESET' },
    });
    expect(logged.stack.split('\n')[0]).toBe(`DrizzleQueryError: ${logged.message}`);
    expect(logged.stack).toMatch(/\n\s+at /);
    expect(loggableMessage(error)).toBe(`${logged.message}: Connection terminated unexpectedly`);
  });

  it('drops the detail naming a conflicting key and the message of a value PostgreSQL could not take', () => {
    const conflict = driverError('duplicate key value violates unique constraint "account_email_key"', {
      code: '23505',
      constraint: 'account_email_key',
      detail: 'Key (email_normalized)=(ada@example.com) already exists.',
    });
    const logged = JSON.stringify(loggableError(conflict));
    expect(logged).not.toContain('ada@example.com');
    expect(logged).toContain('"constraint":"account_email_key"');
    const badValue = driverError(`invalid input syntax for type uuid: "${TOKEN}"`, { code: '22P02' });
    expect(JSON.stringify(loggableError(badValue))).not.toContain(TOKEN);
    expect(loggableMessage(failedLookup(badValue))).toMatch(/: data exception 22P02$/);
  });

  it('takes only an error with a statement and its parameters for a failed query', () => {
    const statementOnly = Object.assign(new Error(`no params: ${TOKEN}`), { query: 'select 1' });
    const paramsOnly = Object.assign(new Error('params only'), { params: [TOKEN] });
    expect(loggableError(statementOnly).message).toBe(`no params: ${TOKEN}`);
    expect(loggableError(paramsOnly).message).toBe('params only');
    expect(JSON.stringify(loggableError(paramsOnly))).not.toContain(TOKEN);
  });

  it('keeps a message whose code is no SQLSTATE, plain fields but no objects, and four causes at most', () => {
    const numbered = Object.assign(new Error('refused 22 times'), { code: 22, position: 7, fatal: true });
    expect(loggableError(numbered)).toMatchObject({ message: 'refused 22 times', position: 7, fatal: true });
    const nested = Object.assign(new Error('with an object'), { client: { password: TOKEN } });
    expect(JSON.stringify(loggableError(nested))).not.toContain(TOKEN);
    const chain = new Error('one', {
      cause: new Error('two', {
        cause: new Error('three', { cause: new Error('four', { cause: new Error('five') }) }),
      }),
    });
    expect(loggableMessage(chain)).toBe('one: two: three: four');
    expect(loggableReason(chain)).toBe('five');
    const logged = loggableError(chain);
    expect(logged.cause).toMatchObject({
      message: 'two',
      cause: { message: 'three', cause: { message: 'four' } },
    });
    const third = (logged.cause as { cause: { cause: Record<string, unknown> } }).cause.cause;
    expect(third.cause).toBeUndefined();
    expect(loggableMessage(new Error('outer', { cause: 'a reason' }))).toBe('outer: a reason');
  });

  it('says the reason of a driver error that carries its statement and values as fields', () => {
    const pglite = Object.assign(new Error('relation "oidc_client" does not exist'), {
      code: '42P01',
      query: 'insert into "oidc_client" values ($1)',
      params: [TOKEN],
    });
    expect(loggableReason(failedLookup(pglite))).toBe('relation "oidc_client" does not exist');
    expect(JSON.stringify(loggableError(pglite))).not.toContain(TOKEN);
  });

  it('ends on a cause that leads back to an error already passed', () => {
    const first = new Error('first');
    const second = new Error('second', { cause: first });
    Object.assign(first, { cause: second });
    expect(loggableReason(first)).toMatch(/^(first|second)$/);
    expect(loggableMessage(first)).toBe('first: second: first: second');
    expect(JSON.stringify(loggableError(first))).toContain('"message":"second"');
  });

  it('reports a start failure with its causes, then its frames, without values', () => {
    const report = loggableReport(
      failedLookup(Object.assign(new Error('permission denied for schema public'), { code: '42501' })),
    );
    const [first, ...frames] = report.split('\n');
    expect(first).toBe(
      'Failed query: select "payload" from "oidc_payload" where ("kind" = $1 and "id" = $2): permission denied for schema public',
    );
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((line) => /^\s+at /.test(line))).toBe(true);
    expect(report).not.toContain(TOKEN);
    expect(loggableReport('no error')).toBe('no error');
  });

  it('says a statement the query layer wrapped twice once, and its reason', () => {
    const reason = Object.assign(new Error('relation "oidc_client" does not exist'), { code: '42P01' });
    const twice = failedLookup(failedLookup(reason));
    expect(loggableMessage(twice)).toBe(
      'Failed query: select "payload" from "oidc_payload" where ("kind" = $1 and "id" = $2): relation "oidc_client" does not exist',
    );
    expect(loggableReason(twice)).toBe('relation "oidc_client" does not exist');
    expect(loggableReason(failedLookup(Object.assign(new Error(`bad "${TOKEN}"`), { code: '22P02' })))).toBe(
      'data exception 22P02',
    );
  });

  it('logs what is no Error as text, an object by its kind only', () => {
    expect(loggableError('refused' as unknown as Error)).toEqual({
      type: 'string',
      message: 'refused',
      stack: '',
    });
    expect(loggableMessage(42)).toBe('42');
    const bare = Object.assign(Object.create(null), { password: TOKEN });
    expect(loggableError(bare as Error)).toEqual({ type: 'object', message: '[object]', stack: '' });
    expect(loggableMessage(new Error('outer', { cause: { token: TOKEN } }))).toBe('outer: [object]');
  });

  it('never throws, whatever the error holds', () => {
    const oddStack = Object.assign(new Error('odd'), { stack: 42 });
    expect(loggableError(oddStack)).toMatchObject({ message: 'odd', stack: 'Error: odd' });
    const throwing = new Error('getter');
    Object.defineProperty(throwing, 'detailed', {
      enumerable: true,
      get: () => {
        throw new Error('no');
      },
    });
    expect(loggableError(throwing)).toMatchObject({ type: 'Error', message: 'getter' });
    // A cause that cannot be described is left out; the error above it is described all the same.
    const above = new Error('above', { cause: throwing });
    Object.defineProperty(throwing, 'stack', {
      get: () => {
        throw new Error('no stack');
      },
    });
    expect(loggableError(above)).toMatchObject({ type: 'Error', message: 'above' });
    expect(loggableError(above).cause).toBeUndefined();
    // Only when the error itself cannot be described does the line say so.
    expect(loggableError(throwing)).toEqual({
      type: 'Error',
      message: 'an error that could not be described',
      stack: '',
    });
  });

  it('shows the errors an AggregateError gathered, each without values', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const both = new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432'), 'gave up'], '');
    const logged = loggableError(failedLookup(both));
    expect(logged.cause).toMatchObject({
      type: 'AggregateError',
      aggregateErrors: [
        { message: 'connect ECONNREFUSED ::1:5432', code: 'ECONNREFUSED' },
        { message: 'connect ECONNREFUSED 127.0.0.1:5432' },
        'gave up',
      ],
    });
    expect(JSON.stringify(logged)).not.toContain(TOKEN);
  });
});
