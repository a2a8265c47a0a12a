import { describe, expect, it } from 'vitest';
import { allowedRedirectOrNull } from './redirect-rules.ts';

/** The longest ReturnUrl or RedirectUrl accepted, in UTF-16 units. */
const MAX_LENGTH = 2048;

describe('allowedRedirectOrNull at its edges', () => {
  const allowed = new Set(['https://planner.example']);

  it('accepts a URL of exactly the maximum length and refuses one character more', () => {
    const base = 'https://planner.example/';
    const longest = `${base}${'a'.repeat(MAX_LENGTH - base.length)}`;
    expect(longest).toHaveLength(MAX_LENGTH);
    expect(allowedRedirectOrNull(longest, allowed)).toBe(longest);
    expect(allowedRedirectOrNull(`${longest}a`, allowed)).toBeNull();
  });

  it('refuses a user name alone and a password alone, not only both', () => {
    expect(allowedRedirectOrNull('https://user@planner.example/', allowed)).toBeNull();
    expect(allowedRedirectOrNull('https://:secret@planner.example/', allowed)).toBeNull();
  });

  it('refuses a blob: URL although its origin is an allowed one', () => {
    const blob = 'blob:https://planner.example/4f1c0a3e-7f7e-4d0e-9b8a-2d2c5d7e9f10';
    expect(new URL(blob).origin).toBe('https://planner.example');
    expect(allowedRedirectOrNull(blob, allowed)).toBeNull();
  });

  it('refuses a non-http(s) scheme even when its origin was put on the allow-list', () => {
    expect(
      allowedRedirectOrNull('wss://planner.example/socket', new Set(['wss://planner.example'])),
    ).toBeNull();
  });
});
