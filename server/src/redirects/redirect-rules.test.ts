import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allowedRedirectOrNull, isLocalReturnPath } from './redirect-rules.ts';

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

describe('allowedRedirectOrNull', () => {
  const allowed = new Set(['https://planner.example', 'http://localhost:3000']);

  it('accepts an absolute URL on an allowed origin', () => {
    expect(allowedRedirectOrNull('https://planner.example/home?x=1', allowed)).toBe(
      'https://planner.example/home?x=1',
    );
    expect(allowedRedirectOrNull('http://localhost:3000/demo', allowed)).toBe('http://localhost:3000/demo');
  });

  it.each([
    'https://evil.test/',
    'https://planner.example.evil.test/',
    'https://planner.example@evil.test/',
    'https://user:pw@planner.example/',
    'javascript:alert(1)',
    'data:text/html,hi',
    '/relative',
    '//planner.example/',
    'https://planner.example\n/',
    'ftp://planner.example/',
  ])('refuses %j', (value) => {
    expect(allowedRedirectOrNull(value, allowed)).toBeNull();
  });
});
