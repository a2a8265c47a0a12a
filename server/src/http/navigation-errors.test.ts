import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { ServiceError } from '../errors/service-error.ts';
import { answerNavigationError } from './navigation-errors.ts';
import { RequestLimitError } from './rate-limit.ts';

/** A navigation route that fails with `error`, and every line its log writes. */
async function failing(error: unknown) {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
    genReqId: () => 'REF12345',
    disableRequestLogging: true,
  });
  app.get('/navigate', { errorHandler: answerNavigationError }, async () => {
    throw error;
  });
  const answer = await app.inject({ method: 'GET', url: '/navigate' });
  await app.close();
  return { answer, lines };
}

const refused = (code: string) => Object.assign(new Error('the database says no'), { code });

describe('a failed navigation goes to the error page, never JSON', () => {
  it.each([
    ['a defect', new Error('internal detail'), '/error/REF12345', 'error', 'internal_error'],
    [
      'a database outage',
      refused('ECONNREFUSED'),
      '/error/REF12345?reason=unavailable',
      'error',
      'service_unavailable',
    ],
    [
      'a refused request',
      new ServiceError('csrf_rejected', 'Cross-site request refused.'),
      '/error/REF12345',
      'info',
      'csrf_rejected',
    ],
    [
      'the request limit',
      new RequestLimitError(42, '42 seconds'),
      '/error/REF12345?reason=rate_limited&wait=42',
      'info',
      'rate_limited',
    ],
  ])('%s: under the reference of its log line', async (_case, error, location, level, code) => {
    const { answer, lines } = await failing(error);
    expect(answer.statusCode).toBe(303);
    expect(answer.headers.location).toBe(location);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.body).not.toContain('internal detail');
    expect(lines).toEqual([
      expect.objectContaining({
        level: level === 'error' ? 50 : 30,
        msg: level === 'error' ? 'request failed' : 'navigation refused',
        reference: 'REF12345',
        code,
        answer: 'error_page',
      }),
    ]);
    // The cause goes to the log of a failure of the service only, with its stack.
    expect(lines[0]?.err !== undefined).toBe(level === 'error');
  });
});

describe('a navigation under a name the service is not configured under', () => {
  it('is answered 421, as on every path, not sent on to the error page under that name', async () => {
    const { answer, lines } = await failing(
      new ServiceError('misdirected_request', 'This service does not answer for that host name.'),
    );
    expect(answer.statusCode).toBe(421);
    expect(answer.headers.location).toBeUndefined();
    expect(answer.json()).toMatchObject({ code: 'misdirected_request' });
    expect(lines).toEqual([]);
  });
});
