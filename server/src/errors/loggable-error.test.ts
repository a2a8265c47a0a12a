import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { loggableError, loggableMessage } from './loggable-error.ts';

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

  it('logs what is no Error as text', () => {
    expect(loggableError('refused' as unknown as Error)).toEqual({
      type: 'string',
      message: 'refused',
      stack: '',
    });
    expect(loggableMessage(42)).toBe('42');
  });
});
