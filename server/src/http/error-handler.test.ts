import { ERROR_STATUS } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/service-error.ts';
import { toHttpError } from './error-handler.ts';

const withStatus = (statusCode: number, code?: string) =>
  Object.assign(new Error('internal detail'), { statusCode, code });

describe('toHttpError', () => {
  it.each([
    [withStatus(429), 'rate_limited'],
    [withStatus(405), 'method_not_allowed'],
    [withStatus(404), 'not_found'],
    [withStatus(503), 'service_unavailable'],
    [withStatus(431), 'bad_request'],
    [withStatus(413, 'FST_ERR_CTP_BODY_TOO_LARGE'), 'payload_too_large'],
    [withStatus(403, 'FST_CSRF_INVALID_TOKEN'), 'csrf_rejected'],
    [new Error('boom'), 'internal_error'],
    ['a thrown string', 'internal_error'],
    [undefined, 'internal_error'],
  ])('maps %s to %s with the contract status and no internal text', (error, code) => {
    const answer = toHttpError(error);
    expect(answer.code).toBe(code);
    expect(answer.statusCode).toBe(ERROR_STATUS[answer.code]);
    expect(answer.message).not.toContain('internal detail');
  });

  it('passes an ServiceError through unchanged', () => {
    const error = new ServiceError('bad_request', 'Invalid Username: required', 'Username');
    expect(toHttpError(error)).toBe(error);
    expect(error.toBody()).toEqual({
      code: 'bad_request',
      message: 'Invalid Username: required',
      field: 'Username',
    });
  });
});
