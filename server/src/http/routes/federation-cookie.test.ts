import { describe, expect, it } from 'vitest';
import { flowCookieName } from './federation.ts';

describe('the upstream-flow cookie name (DESIGN §2 Cookies)', () => {
  it('takes the __Host- prefix under https only', () => {
    expect(flowCookieName('https://login.example.com')).toBe('__Host-federation');
    expect(flowCookieName('http://localhost:3000')).toBe('federation');
  });
});
