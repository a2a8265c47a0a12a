import {
  type AdminCall,
  adminCalls,
  answerableErrors,
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorCode,
  postCalls,
} from '@keycard/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { InputError } from '../errors/input-error.ts';
import { ConflictError, NotFoundError, ServiceError } from '../errors/service-error.ts';
import { adminCall } from './admin-api/admin-call.ts';
import { providerCalls } from './admin-api/provider-calls.ts';
import { postCall } from './contract-call.ts';
import { answerFor, type Door, installErrorHandler } from './error-handler.ts';

/** A refused value in the door's terms: the SPA's bad_request, the admin API's invalid_input. */
function inDoorTerms(code: ErrorCode, door: Door): ErrorCode {
  if (code !== 'bad_request' && code !== 'invalid_input') return code;
  return door === 'api' ? 'bad_request' : 'invalid_input';
}

/** The status a route declared as `declared` answers when its handler throws `code`. */
function expectedStatus(code: ErrorCode, door: Door, declared: readonly ErrorCode[]): number {
  const answered = inDoorTerms(code, door);
  return declared.includes(answered) ? ERROR_STATUS[answered] : 500;
}

const apps: FastifyInstance[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

/** One route per thrown code, each registered as `register` does with the call's declaration. */
async function throwingApp(register: (app: FastifyInstance, code: ErrorCode) => void) {
  const app = Fastify();
  apps.push(app);
  installErrorHandler(app);
  for (const code of ERROR_CODES) register(app, code);
  await app.ready();
  return app;
}

describe('a route answers only the error codes its contract entry declares', () => {
  it.each(Object.entries(postCalls))('POST %s', async (_name, call) => {
    const app = await throwingApp((scope, code) =>
      postCall(scope, { ...call, path: `/api/${code}`, request: call.request.optional() }, async () => {
        throw new ServiceError(code, 'refused');
      }),
    );
    for (const code of ERROR_CODES) {
      const response = await app.inject({ method: 'POST', url: `/api/${code}` });
      expect(response.statusCode, code).toBe(expectedStatus(code, 'api', answerableErrors('api', call)));
    }
  });

  const admin: [string, AdminCall][] = Object.entries({ ...adminCalls, ...providerCalls });
  it.each(admin)('admin API %s', async (_name, call) => {
    const app = await throwingApp((scope, code) =>
      adminCall(
        scope,
        {
          ...call,
          method: 'POST',
          path: `/admin/api/${code}`,
          params: undefined,
          query: undefined,
          body: undefined,
        },
        () => ({ db: undefined as never }),
        async () => {
          throw new ServiceError(code, 'refused');
        },
      ),
    );
    for (const code of ERROR_CODES) {
      const response = await app.inject({ method: 'POST', url: `/admin/api/${code}` });
      expect(response.statusCode, code).toBe(expectedStatus(code, 'admin', answerableErrors('admin', call)));
    }
  });
});

describe('answerFor', () => {
  it('answers an undeclared code as internal_error and names it for the log', () => {
    const declared = answerableErrors('api', postCalls.login);
    expect(answerFor(new NotFoundError('gone'), 'api', declared)).toEqual({
      answer: expect.objectContaining({
        code: 'internal_error',
        message: 'Something went wrong on our side.',
      }),
      undeclared: 'not_found',
    });
    expect(
      answerFor(new NotFoundError('gone'), 'api', answerableErrors('api', postCalls.logout)).answer.code,
    ).toBe('not_found');
    expect(answerFor(new ConflictError('taken'), 'admin').answer.code).toBe('conflict');
  });

  it('names a refused value by door: bad_request for the SPA, invalid_input for the admin API', () => {
    const refused = new InputError('Invalid Username: required', 'Username');
    expect(answerFor(refused, 'api').answer.toBody()).toEqual({
      code: 'bad_request',
      message: 'Invalid Username: required',
      field: 'Username',
    });
    expect(answerFor(refused, 'admin').answer.code).toBe('invalid_input');
  });
});
