import { describe, expect, it } from 'vitest';
import {
  applicationTarget,
  forgotPasswordTarget,
  identityUrl,
  isHttpUrl,
  lockedLoginTarget,
  redirectLoginTarget,
  safeTarget,
} from './link-targets.ts';

describe('safeTarget', () => {
  it('keeps local paths and http(s) URLs', () => {
    expect(safeTarget('/resume?x=1')).toBe('/resume?x=1');
    expect(safeTarget('https://app.example/')).toBe('https://app.example/');
    expect(safeTarget('http://localhost:3000/demo')).toBe('http://localhost:3000/demo');
  });

  it('drops other schemes, protocol-relative and relative targets', () => {
    expect(safeTarget('javascript:alert(1)')).toBe('');
    expect(safeTarget('data:text/html,x')).toBe('');
    expect(safeTarget('//evil.example')).toBe('');
    expect(safeTarget('/\\evil.example')).toBe('');
    expect(safeTarget('/\t/evil.example')).toBe('');
    expect(safeTarget('/\n/evil.example')).toBe('');
    expect(safeTarget('/ok\u0000')).toBe('');
    expect(safeTarget('resume')).toBe('');
    expect(safeTarget('')).toBe('');
  });
});

describe('isHttpUrl', () => {
  it('is false, not merely falsy, for what is no URL at all', () => {
    expect(isHttpUrl('not a url')).toBe(false);
    expect(isHttpUrl('')).toBe(false);
  });
});

describe('identityUrl (SPEC §7: the identity base plus a path)', () => {
  it('joins the base and the path with one slash, whatever number of slashes ends the base', () => {
    expect(identityUrl('https://id.example', '/api/DefaultRedirect')).toBe(
      'https://id.example/api/DefaultRedirect',
    );
    expect(identityUrl('https://id.example/', '/api/DefaultRedirect')).toBe(
      'https://id.example/api/DefaultRedirect',
    );
    expect(identityUrl('https://id.example//', '/api/DefaultRedirect')).toBe(
      'https://id.example/api/DefaultRedirect',
    );
  });

  it('keeps a base path and leaves an empty base (same origin) as the path alone', () => {
    expect(identityUrl('https://example.com/identity/', '/x')).toBe('https://example.com/identity/x');
    expect(identityUrl('', '/api/DefaultRedirect')).toBe('/api/DefaultRedirect');
  });
});

const BASE = 'https://id.example';

describe('link targets of the locked and expired-link pages', () => {
  it('forgot password keeps the query string', () => {
    expect(forgotPasswordTarget('?ReturnUrl=%2Fx')).toBe('/forgotPassword?ReturnUrl=%2Fx');
    expect(forgotPasswordTarget('')).toBe('/forgotPassword');
  });

  it('locked: back to sign-in with the query string when it has a ReturnUrl', () => {
    expect(lockedLoginTarget('?ReturnUrl=%2Fresume', BASE)).toBe('/?ReturnUrl=%2Fresume');
    expect(lockedLoginTarget('?returnUrl=/r&x=1', BASE)).toBe('/?returnUrl=/r&x=1');
  });

  it('locked: else the RedirectUrl by way of the service, else the start page', () => {
    expect(lockedLoginTarget('?RedirectUrl=https%3A%2F%2Fapp.example', BASE)).toBe(
      `${BASE}/api/DefaultRedirect?RedirectUrl=https%3A%2F%2Fapp.example`,
    );
    expect(lockedLoginTarget('?RedirectUrl=javascript:alert(1)', BASE)).toBe('/');
    expect(lockedLoginTarget('', BASE)).toBe('/');
  });

  it('expired link: the RedirectUrl by way of the service, or / without one', () => {
    expect(redirectLoginTarget('?redirectUrl=https://app.example/x', BASE)).toBe(
      `${BASE}/api/DefaultRedirect?RedirectUrl=https%3A%2F%2Fapp.example%2Fx`,
    );
    expect(redirectLoginTarget('?RedirectUrl=https://app.example&y=1', BASE)).toBe('/');
    expect(redirectLoginTarget('', BASE)).toBe('/');
  });
});

describe('applicationTarget (DESIGN §2: only the service knows the allow-list)', () => {
  it('never links straight to an http(s) URL a stranger could have written into the query', () => {
    const target = new URL(applicationTarget('https://evil.example/login?x=1#y', BASE));
    expect(target.origin).toBe(BASE);
    expect(target.pathname).toBe('/api/DefaultRedirect');
    expect(target.searchParams.get('RedirectUrl')).toBe('https://evil.example/login?x=1#y');
    expect([...target.searchParams.keys()]).toEqual(['RedirectUrl']);
    expect(target.hash).toBe('');
  });

  it("is absolute on the page's own origin when the service shares it (an empty base), so no link takes it for a page of the SPA", () => {
    expect(applicationTarget('http://app.example/', '')).toBe(
      `${window.location.origin}/api/DefaultRedirect?RedirectUrl=http%3A%2F%2Fapp.example%2F`,
    );
    expect(applicationTarget('http://app.example/', 'https://id.example/identity/')).toBe(
      'https://id.example/identity/api/DefaultRedirect?RedirectUrl=http%3A%2F%2Fapp.example%2F',
    );
  });

  it('keeps a local path, and gives nothing for other schemes or protocol-relative targets', () => {
    expect(applicationTarget('/demo?x=1', BASE)).toBe('/demo?x=1');
    expect(applicationTarget('javascript:alert(1)', BASE)).toBe('');
    expect(applicationTarget('//evil.example', BASE)).toBe('');
    expect(applicationTarget('', BASE)).toBe('');
  });
});
