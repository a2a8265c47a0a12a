import { describe, expect, it } from 'vitest';
import { isApiPath, withUnreservedDecoded } from './paths.ts';

describe('the path the router matches', () => {
  it('decodes escaped letters, digits and "-._~" in the path, in either case of hex', () => {
    expect(withUnreservedDecoded('/%61pi/forgotpassword')).toBe('/api/forgotpassword');
    expect(withUnreservedDecoded('/%41%50%49/x%2Dy%2e%5f%7E%30%39%5A%7a')).toBe('/API/x-y._~09Zz');
    expect(isApiPath(withUnreservedDecoded('/%61pi/forgotpassword'))).toBe(true);
  });

  it('decodes until nothing is left that the router would decode again', () => {
    // One pass would leave /%61pi: a decoded digit completes an escape with the "%" before it.
    expect(withUnreservedDecoded('/%%361pi/forgotpassword')).toBe('/api/forgotpassword');
    expect(withUnreservedDecoded('/%6%31pi/x')).toBe('/api/x');
  });

  it('keeps escapes of reserved and other characters, a stray "%" and the query as they came', () => {
    for (const url of ['/a%2Fb', '/a%3Fb', '/a%25b', '/a%20b', '/%C3%BC', '/100%', '/a%G1', '/a%4']) {
      expect(withUnreservedDecoded(url)).toBe(url);
    }
    expect(withUnreservedDecoded('/%61pi/x?next=%61#%61')).toBe('/api/x?next=%61#%61');
    expect(withUnreservedDecoded('/api/x')).toBe('/api/x');
  });
});
