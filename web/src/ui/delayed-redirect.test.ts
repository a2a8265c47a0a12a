import { describe, expect, it } from 'vitest';
import { ERROR_PAGE, httpRedirectOr, httpUrlOrNull, redirectTo } from './delayed-redirect.ts';

describe('httpUrlOrNull (SPEC §5)', () => {
  it('keeps absolute http and https URLs', () => {
    expect(httpUrlOrNull('https://planner.example/x?y=1')).toBe('https://planner.example/x?y=1');
    expect(httpUrlOrNull('http://localhost:3000/demo')).toBe('http://localhost:3000/demo');
  });

  it('refuses other schemes, relative targets and nothing', () => {
    for (const value of ['javascript:alert(1)', 'data:text/html,x', '//evil.example', '/local', 'x', '']) {
      expect(httpUrlOrNull(value)).toBeNull();
    }
    expect(httpUrlOrNull(null)).toBeNull();
    expect(httpUrlOrNull(undefined)).toBeNull();
  });
});

describe('redirect targets', () => {
  it('loads an http(s) URL, else takes the fallback', () => {
    expect(httpRedirectOr('https://a.example/', ERROR_PAGE)).toEqual({
      kind: 'leave',
      url: 'https://a.example/',
    });
    expect(httpRedirectOr('javascript:alert(1)', ERROR_PAGE)).toEqual({ kind: 'route', to: '/error' });
  });

  it('routes a local link target inside the SPA and loads any other', () => {
    expect(redirectTo('/?ReturnUrl=%2Fx')).toEqual({ kind: 'route', to: '/?ReturnUrl=%2Fx' });
    expect(redirectTo('https://a.example/')).toEqual({ kind: 'leave', url: 'https://a.example/' });
  });
});
