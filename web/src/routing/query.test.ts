import { describe, expect, it } from 'vitest';
import {
  hasReturnUrl,
  pageLanguage,
  readLoginHint,
  readLogoutId,
  readProduct,
  readRedirectUrl,
  readReturnUrl,
} from './query.ts';

describe('readReturnUrl (SPEC §3)', () => {
  it('accepts both spellings', () => {
    expect(readReturnUrl('?ReturnUrl=%2Fconnect%3Fproduct%3DPlanner')).toBe('/connect?product=Planner');
    expect(readReturnUrl('?returnUrl=/resume')).toBe('/resume');
  });

  it('answers empty when the query string contains an ampersand anywhere', () => {
    expect(readReturnUrl('?ReturnUrl=/x&y=1')).toBe('');
    expect(readReturnUrl('?y=1&ReturnUrl=/x')).toBe('');
    expect(readReturnUrl('?ReturnUrl=/x&')).toBe('');
  });

  it('keeps an encoded ampersand, which is not one in the query string', () => {
    expect(readReturnUrl('?ReturnUrl=%2Fx%3Fa%3D1%26b%3D2')).toBe('/x?a=1&b=2');
  });

  it('answers empty when absent or for other spellings', () => {
    expect(readReturnUrl('')).toBe('');
    expect(readReturnUrl('?RETURNURL=/x')).toBe('');
    expect(readReturnUrl('?RedirectUrl=https://a.example')).toBe('');
  });
});

describe('readRedirectUrl (SPEC §3)', () => {
  it('accepts both spellings', () => {
    expect(readRedirectUrl('?RedirectUrl=https%3A%2F%2Fapp.example%2F')).toBe('https://app.example/');
    expect(readRedirectUrl('?redirectUrl=https://app.example/x')).toBe('https://app.example/x');
  });

  it('answers empty when the query string contains an ampersand', () => {
    expect(readRedirectUrl('?RedirectUrl=https://app.example&x=1')).toBe('');
  });

  it('answers empty when absent', () => {
    expect(readRedirectUrl('?ReturnUrl=/x')).toBe('');
  });
});

describe('hasReturnUrl', () => {
  it('looks at presence only, so the ampersand rule does not apply', () => {
    expect(hasReturnUrl('?ReturnUrl=/x&y=1')).toBe(true);
    expect(hasReturnUrl('?returnUrl=')).toBe(true);
    expect(hasReturnUrl('?redirectUrl=/x')).toBe(false);
    expect(hasReturnUrl('')).toBe(false);
  });
});

describe('readLogoutId', () => {
  it('reads logoutId, also next to other parameters', () => {
    expect(readLogoutId('?logoutId=abc')).toBe('abc');
    expect(readLogoutId('?x=1&logoutId=abc')).toBe('abc');
    expect(readLogoutId('')).toBe('');
  });
});

describe('readProduct (SPEC §3)', () => {
  /** The product's own name as a SITE_FILE may set it. */
  const OWN = 'GuestGate';

  it('reads the product parameter carried inside the ReturnUrl', () => {
    expect(readProduct('/oidc/interaction/abc?product=Planner', OWN)).toBe('Planner');
    expect(readProduct('/resume?x=1&product=Rooms%20Pro#frag', OWN)).toBe('Rooms Pro');
  });

  it("defaults to the product's own name", () => {
    expect(readProduct('', OWN)).toBe(OWN);
    expect(readProduct('/resume', OWN)).toBe(OWN);
    expect(readProduct('/resume?product=', OWN)).toBe(OWN);
    expect(readProduct('/resume?other=1', OWN)).toBe(OWN);
  });

  it('shows a name of up to 100 characters, the longest a client registers, and nothing made up past it', () => {
    const longest = 'P'.repeat(100);
    expect(readProduct(`/resume?product=${longest}`, OWN)).toBe(longest);
    expect(readProduct(`/resume?product=${longest}x`, OWN)).toBe(OWN);
    expect(readProduct('/resume?product=%20%20Rooms%20%20', OWN)).toBe('Rooms');
    expect(readProduct('/resume?product=Rooms%0AYour%20account%20is%20locked', OWN)).toBe(OWN);
  });
});

describe('readLoginHint (the login_hint inside a ReturnUrl)', () => {
  it('reads and trims it', () => {
    expect(readLoginHint('/oidc/auth/u?product=P&login_hint=%20ada%40example.com')).toBe('ada@example.com');
  });

  it('is null when absent, empty, overlong or holding control characters', () => {
    expect(readLoginHint('/oidc/auth/u?product=P')).toBeNull();
    expect(readLoginHint('/oidc/auth/u')).toBeNull();
    expect(readLoginHint('/oidc/auth/u?login_hint=')).toBeNull();
    expect(readLoginHint(`/oidc/auth/u?login_hint=${'a'.repeat(321)}`)).toBeNull();
    expect(readLoginHint('/oidc/auth/u?login_hint=ada%0A%40x.example')).toBeNull();
  });
});

describe('pageLanguage (ui_locales inside the ReturnUrl, else the browser language)', () => {
  const search = (inner: string) => `?ReturnUrl=${encodeURIComponent(inner)}`;

  it('prefers the ReturnUrl’s supported language', () => {
    expect(pageLanguage(search('/oidc/auth/u?product=P&ui_locales=de'), 'en-US')).toBe('de');
    expect(pageLanguage(search('/oidc/auth/u?ui_locales=fr%20en'), 'de-DE')).toBe('en');
  });

  it('keeps the browser language otherwise', () => {
    expect(pageLanguage(search('/oidc/auth/u?product=P'), 'de-DE')).toBe('de-DE');
    expect(pageLanguage(search('/oidc/auth/u?ui_locales=fr'), 'de-DE')).toBe('de-DE');
    expect(pageLanguage('', 'en-GB')).toBe('en-GB');
    // SPEC §3's quirk: a query string with '&' has no ReturnUrl.
    expect(pageLanguage(`${search('/oidc/auth/u?ui_locales=de')}&x=1`, 'en-US')).toBe('en-US');
  });
});
