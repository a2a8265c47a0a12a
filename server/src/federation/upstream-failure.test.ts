import * as oidc from 'openid-client';
import { describe, expect, it } from 'vitest';
import { printableWord, upstreamFailure } from './upstream-failure.ts';

/** fetch's own failure, as undici raises it: a TypeError whose cause is the system's error. */
function fetchFailed(code?: string): TypeError {
  const cause = Object.assign(new Error('connect failed'), code === undefined ? {} : { code });
  return new TypeError('fetch failed', { cause });
}

/** openid-client's error with its code, as its error handler makes one (its typings leave `code` out). */
function clientError(message: string, code: string): oidc.ClientError {
  return new oidc.ClientError(message, { code } as ErrorOptions);
}

describe('upstreamFailure', () => {
  it('names a request the provider never answered by the system error of its connection', () => {
    expect(upstreamFailure(fetchFailed('ECONNREFUSED'))).toEqual({ unanswered: true, cause: 'ECONNREFUSED' });
    expect(upstreamFailure(fetchFailed('CERT_HAS_EXPIRED'))).toEqual({
      unanswered: true,
      cause: 'CERT_HAS_EXPIRED',
    });
    expect(upstreamFailure(fetchFailed())).toEqual({ unanswered: true, cause: 'Error' });
  });

  it("counts openid-client's timeout as unanswered", () => {
    const timeout = clientError('operation timed out', 'OAUTH_TIMEOUT');
    expect(upstreamFailure(timeout)).toEqual({ unanswered: true, cause: 'OAUTH_TIMEOUT' });
  });

  it('names an answer the provider gave by its OAuth error or the failed check, as answered', () => {
    const check = clientError('invalid response encountered', 'OAUTH_INVALID_RESPONSE');
    expect(upstreamFailure(check)).toEqual({ unanswered: false, cause: 'OAUTH_INVALID_RESPONSE' });
    // Any other TypeError is no connection's failure.
    expect(upstreamFailure(new TypeError('bad input'))).toEqual({ unanswered: false, cause: 'TypeError' });
    expect(upstreamFailure('thrown text')).toEqual({ unanswered: false, cause: 'unknown' });
    expect(upstreamFailure(null)).toEqual({ unanswered: false, cause: 'unknown' });
  });

  it('names a 401 by the error of the first challenge that states one (RFC 6750 §3)', () => {
    const challenged = (...parameters: Record<string, string>[]) =>
      new oidc.WWWAuthenticateChallengeError('server responded with a challenge', {
        cause: parameters.map((given) => ({ scheme: 'basic', parameters: given })),
        response: new Response(null, { status: 401 }),
      });
    expect(upstreamFailure(challenged({ realm: 'upstream' }, { error: 'invalid_client' }))).toEqual({
      unanswered: false,
      cause: 'invalid_client',
    });
    // None states one: the check's own code.
    expect(upstreamFailure(challenged({ realm: 'upstream' }))).toEqual({
      unanswered: false,
      cause: 'OAUTH_WWW_AUTHENTICATE_CHALLENGE',
    });
  });
});

describe('printableWord', () => {
  it('keeps printable ASCII, at most 64 characters, and says unknown for nothing', () => {
    expect(printableWord('invalid_grant')).toBe('invalid_grant');
    expect(printableWord('a b\nc\u00e9')).toBe('abc');
    expect(printableWord('x'.repeat(70))).toBe('x'.repeat(64));
    expect(printableWord(' \n')).toBe('unknown');
  });
});
