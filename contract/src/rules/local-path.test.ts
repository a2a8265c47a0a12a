import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isLocalReturnPath } from './local-path.ts';

/** The longest ReturnUrl accepted, in UTF-16 units. */
const MAX_LENGTH = 2048;

const HOST = 'https://keycard.example';

/** Where a browser on HOST would end up following `value` as a relative reference. */
function browserOrigin(value: string): string {
  return new URL(value, HOST).origin;
}

describe('isLocalReturnPath', () => {
  it.each(['/', '/oidc/auth/abc?product=Planner', '/resetPassword/2/code?ReturnUrl=%2Foidc%2Fauth%2Fx'])(
    'accepts the local path %s',
    (value) => {
      expect(isLocalReturnPath(value)).toBe(true);
    },
  );

  it.each([
    '//evil.test',
    '/\\evil.test',
    '\\\\evil.test',
    'https:evil.test',
    'https://evil.test',
    'javascript:alert(1)',
    '/%2F%2Fevil.test',
    '/%5Cevil.test',
    '/%252F%252Fevil.test',
    '/\r\n//evil.test',
    '/\t/evil.test',
    ' /x',
    'evil.test',
    '',
    '/%E0%A4%A',
  ])('refuses %j', (value) => {
    expect(isLocalReturnPath(value)).toBe(false);
  });

  it('never accepts a value a browser would resolve off-site (fuzz)', () => {
    const pieces = fc.constantFrom(
      '/',
      '//',
      '\\',
      '%2F',
      '%5C',
      '%252F',
      'evil.test',
      ':',
      'https:',
      '\t',
      '\n',
      '@',
      '.',
      'a',
    );
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 8 }).map((parts) => parts.join('')),
        (value) => {
          if (isLocalReturnPath(value)) {
            expect(browserOrigin(value)).toBe(HOST);
            expect(browserOrigin(decodeURIComponent(decodeURIComponent(value)))).toBe(HOST);
          }
        },
      ),
      { numRuns: 5000 },
    );
  });
});

describe('isLocalReturnPath at its edges', () => {
  it('refuses a missing or empty value instead of failing on it', () => {
    // A reader hands over null when the query has no ReturnUrl (SPEC §3); an empty one is no path.
    expect(isLocalReturnPath(null)).toBe(false);
    expect(isLocalReturnPath(undefined)).toBe(false);
    expect(isLocalReturnPath('')).toBe(false);
    expect(isLocalReturnPath('/')).toBe(true);
  });

  it('accepts a path of exactly the maximum length and refuses one character more', () => {
    const longest = `/${'a'.repeat(MAX_LENGTH - 1)}`;
    expect(isLocalReturnPath(longest)).toBe(true);
    expect(isLocalReturnPath(`${longest}a`)).toBe(false);
  });

  it('refuses a value that only becomes a path once decoded', () => {
    // A hop that does not decode would treat it as relative to the current page.
    expect(isLocalReturnPath('%2Fresume')).toBe(false);
    expect(isLocalReturnPath('%2F%2Fevil.test')).toBe(false);
  });

  it('decodes three times, no more: a four-times-encoded "//" stays literal text of a local path', () => {
    // Three rounds cover every hop that decodes (browser, server, provider); what is left after them is
    // a path segment that resolves on this site.
    expect(isLocalReturnPath('/%252F%252Fevil.test')).toBe(false);
    expect(isLocalReturnPath('/%25252F%25252Fevil.test')).toBe(false);
    expect(isLocalReturnPath('/%2525252F%2525252Fevil.test')).toBe(true);
  });
});
