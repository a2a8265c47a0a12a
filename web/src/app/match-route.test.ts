import { VerificationType } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { matchRoute } from './match-route.ts';

const screenOf = (path: string, search = '') => matchRoute(path, search).screen;

describe('matchRoute: / (exact)', () => {
  it('shows sign-in when the query has a ReturnUrl parameter, in either spelling', () => {
    expect(screenOf('/', '?ReturnUrl=%2Fresume')).toBe('signIn');
    expect(screenOf('/', '?returnUrl=/resume')).toBe('signIn');
    expect(screenOf('/', '?ReturnUrl=/resume&x=1')).toBe('signIn');
  });

  it('shows the fallback landing page otherwise', () => {
    expect(screenOf('/')).toBe('fallbackLanding');
    expect(screenOf('/', '?RedirectUrl=https://a.example')).toBe('fallbackLanding');
    expect(screenOf('')).toBe('fallbackLanding');
  });

  it('is exact: a ReturnUrl on another unknown path does not sign in', () => {
    expect(screenOf('/signin', '?ReturnUrl=/resume')).toBe('fallbackLanding');
  });
});

describe('matchRoute: plain routes', () => {
  it.each([
    ['/logout', 'logout'],
    ['/logout/', 'logout'],
    ['/LOGOUT/x', 'logout'],
    ['/forgotPassword', 'forgotPassword'],
    ['/forgotpassword/', 'forgotPassword'],
    ['/FORGOTPASSWORD', 'forgotPassword'],
    ['/expiredLink', 'expiredLink'],
    ['/ExpiredLink/', 'expiredLink'],
    ['/error', 'error'],
    ['/Error/', 'error'],
    ['/locked', 'locked'],
    ['/Locked/', 'locked'],
  ] as const)('%s → %s (case-insensitive, trailing slash optional)', (path, screen) => {
    expect(screenOf(path)).toBe(screen);
  });

  it('matches by prefix of the path string', () => {
    expect(screenOf('/forgotpasswordX')).toBe('forgotPassword');
    expect(screenOf('/logout/extra/segments')).toBe('logout');
  });

  it('sends everything else to the fallback landing page', () => {
    expect(screenOf('/nothing')).toBe('fallbackLanding');
    expect(screenOf('/x/logout')).toBe('fallbackLanding');
    expect(screenOf('/images/x.jpg')).toBe('fallbackLanding');
  });
});

describe('matchRoute: /error/{reference}', () => {
  it('reads the last segment as the reference of a refused request, keeping its case', () => {
    expect(matchRoute('/error/7K2M9QXD', '')).toEqual({ screen: 'error', reference: '7K2M9QXD' });
    expect(matchRoute('/Error/x/7k2m9qxd/', '')).toEqual({ screen: 'error', reference: '7k2m9qxd' });
  });

  it('has no reference without a segment, or after another prefix of the path string', () => {
    expect(matchRoute('/error', '')).toEqual({ screen: 'error', reference: null });
    expect(matchRoute('/error/', '')).toEqual({ screen: 'error', reference: null });
    expect(matchRoute('/errorX/7K2M9QXD', '')).toEqual({ screen: 'error', reference: null });
  });
});

describe('matchRoute: /resetPassword/{verificationType}/{code}', () => {
  it('reads the type from the second-to-last segment and the code from the last', () => {
    expect(matchRoute('/resetPassword/2/AbC-_9', '')).toEqual({
      screen: 'resetPassword',
      verificationType: VerificationType.PasswordExpired,
      code: 'AbC-_9',
    });
    expect(matchRoute('/RESETPASSWORD/6/code', '?ReturnUrl=/x')).toMatchObject({ verificationType: 6 });
  });

  it('keeps the case of the code while matching the path case-insensitively', () => {
    expect(matchRoute('/ResetPassword/1/MiXeD', '')).toMatchObject({ code: 'MiXeD' });
  });

  it('falls back to PasswordReset when there is no numeric type', () => {
    expect(matchRoute('/resetPassword/code', '')).toMatchObject({ verificationType: 1, code: 'code' });
    expect(matchRoute('/resetPassword/abc/code', '')).toMatchObject({ verificationType: 1, code: 'code' });
    expect(matchRoute('/resetPassword/2x/code', '')).toMatchObject({ verificationType: 1 });
    expect(matchRoute('/resetPassword/-2/code', '')).toMatchObject({ verificationType: 1 });
  });

  it('treats a number that is no verification type as missing', () => {
    expect(matchRoute('/resetPassword/99/code', '')).toMatchObject({ verificationType: 1, code: 'code' });
  });

  it('ignores a trailing slash', () => {
    expect(matchRoute('/resetPassword/2/code/', '')).toMatchObject({ verificationType: 2, code: 'code' });
  });

  it('uses the last two segments when there are more', () => {
    expect(matchRoute('/resetPassword/x/3/code', '')).toMatchObject({ verificationType: 3, code: 'code' });
  });

  it('needs a code segment', () => {
    expect(screenOf('/resetPassword')).toBe('fallbackLanding');
    expect(screenOf('/resetPassword/')).toBe('fallbackLanding');
  });
});

describe('matchRoute: /unlock/{code} and /verifyNewEmail/{code}', () => {
  it('takes the last path segment as the code', () => {
    expect(matchRoute('/unlock/Code1', '')).toEqual({ screen: 'unlock', code: 'Code1' });
    expect(matchRoute('/UNLOCK/a/b/', '')).toEqual({ screen: 'unlock', code: 'b' });
    expect(matchRoute('/verifyNewEmail/Xy', '')).toEqual({ screen: 'verifyNewEmail', code: 'Xy' });
    expect(matchRoute('/verifynewemail/Xy/', '?RedirectUrl=x')).toEqual({
      screen: 'verifyNewEmail',
      code: 'Xy',
    });
  });

  it('decodes percent-encoding and keeps malformed encoding as it is', () => {
    expect(matchRoute('/unlock/a%2Bb', '')).toEqual({ screen: 'unlock', code: 'a+b' });
    expect(matchRoute('/unlock/a%E0', '')).toEqual({ screen: 'unlock', code: 'a%E0' });
  });

  it('shows the fallback landing page without a code', () => {
    expect(screenOf('/unlock')).toBe('fallbackLanding');
    expect(screenOf('/unlock/')).toBe('fallbackLanding');
    expect(screenOf('/verifyNewEmail')).toBe('fallbackLanding');
  });
});
