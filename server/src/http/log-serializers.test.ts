import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggableUrl, requestSerializers } from './log-serializers.ts';

describe('loggableUrl', () => {
  it.each([
    ['/api/login', '/api/login'],
    ['/?ReturnUrl=%2Foidc%2Finteraction%2Fabc', '/'],
    ['/logout?logoutId=secret-id', '/logout'],
    [
      '/api/RedirectToExternalIdentityProvider?login_hint=ada@example.com',
      '/api/RedirectToExternalIdentityProvider',
    ],
    ['/resetPassword/1/Zm9vYmFy', '/resetPassword/[redacted]'],
    ['/RESETPASSWORD/code-only', '/RESETPASSWORD/[redacted]'],
    ['/unlock/abc/', '/unlock/[redacted]'],
    ['/verifyNewEmail/abc#x', '/verifyNewEmail/[redacted]'],
    ['/unlock', '/unlock'],
    ['/oidc/auth/Xk3u9-interaction-uid', '/oidc/auth/[redacted]'],
    ['/oidc/auth/Xk3u9-interaction-uid?code=abc&state=xyz', '/oidc/auth/[redacted]'],
    ['/OIDC/Interaction/Xk3u9/abort', '/OIDC/Interaction/[redacted]'],
    ['/oidc/interaction/Xk3u9', '/oidc/interaction/[redacted]'],
    ['/oidc/device/Xk3u9', '/oidc/device/[redacted]'],
    ['/oidc/device/auth', '/oidc/device/auth'],
    ['/dev/mail/0e6c0a9e-1c6e-4f8e-9b7f-6a1d2c3b4a5f', '/dev/mail/[redacted]'],
    ['/dev/mail', '/dev/mail'],
    ['/oidc/auth?client_id=app&state=s3cr3t&code_challenge=c', '/oidc/auth'],
    ['/oidc/auth/', '/oidc/auth/'],
    [
      '/api/ExternalIdentityProviderCallback?code=upstream-code&state=st',
      '/api/ExternalIdentityProviderCallback',
    ],
    ['/demo/callback?code=abc&state=xyz&iss=x', '/demo/callback'],
    ['/oidc/session/end?id_token_hint=eyJ.x.y&state=z', '/oidc/session/end'],
  ])('logs %s as %s (no codes, no query)', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });
});

describe('the request line', () => {
  it('redacts a code in a path whose letters came escaped, as the router read them', () => {
    const request = { method: 'GET', originalUrl: '/%72esetPassword/1/Zm9vYmFy', ip: '10.0.0.1' };
    expect(requestSerializers.req(request as FastifyRequest)).toEqual({
      method: 'GET',
      url: '/resetPassword/[redacted]',
      remoteAddress: '10.0.0.1',
    });
  });
});
