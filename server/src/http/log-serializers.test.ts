import { describe, expect, it } from 'vitest';
import { loggableUrl } from './log-serializers.ts';

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
  ])('logs %s as %s (no codes, no query)', (url, logged) => {
    expect(loggableUrl(url)).toBe(logged);
  });
});
