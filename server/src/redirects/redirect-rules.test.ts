import { describe, expect, it } from 'vitest';
import { allowedRedirectOrNull } from './redirect-rules.ts';

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
