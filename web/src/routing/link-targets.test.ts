import { describe, expect, it } from 'vitest';
import {
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

describe('link targets of the locked and expired-link pages', () => {
  it('forgot password keeps the query string', () => {
    expect(forgotPasswordTarget('?ReturnUrl=%2Fx')).toBe('/forgotPassword?ReturnUrl=%2Fx');
    expect(forgotPasswordTarget('')).toBe('/forgotPassword');
  });

  it('locked: back to sign-in with the query string when it has a ReturnUrl', () => {
    expect(lockedLoginTarget('?ReturnUrl=%2Fresume')).toBe('/?ReturnUrl=%2Fresume');
    expect(lockedLoginTarget('?returnUrl=/r&x=1')).toBe('/?returnUrl=/r&x=1');
  });

  it('locked: else the RedirectUrl, else the start page', () => {
    expect(lockedLoginTarget('?RedirectUrl=https%3A%2F%2Fapp.example')).toBe('https://app.example');
    expect(lockedLoginTarget('?RedirectUrl=javascript:alert(1)')).toBe('/');
    expect(lockedLoginTarget('')).toBe('/');
  });

  it('expired link: the RedirectUrl, or / without one', () => {
    expect(redirectLoginTarget('?redirectUrl=https://app.example/x')).toBe('https://app.example/x');
    expect(redirectLoginTarget('?RedirectUrl=https://app.example&y=1')).toBe('/');
    expect(redirectLoginTarget('')).toBe('/');
  });
});
