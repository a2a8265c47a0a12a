import { describe, expect, it } from 'vitest';
import { isErrorReference } from './error-reference.ts';

describe('isErrorReference', () => {
  it.each([
    ['the service’s own', '7K2M9QXD'],
    ['a UUID a proxy set', '3f2b8c1e-9a4d-4e6f-8b1a-2c3d4e5f6a7b'],
    ['nginx’s $request_id', '9f86d081884c7d659a2feaa0c55ad015'],
    ['16 upper-case hex digits', '0123456789ABCDEF'],
  ])('accepts %s request id: %s', (_kind, value) => {
    expect(isErrorReference(value)).toBe(true);
  });

  it.each([
    ['a message', 'call-0800-123456'],
    ['lower-case base32', '7k2m9qxd'],
    ['seven characters', '7K2M9QX'],
    ['misreadable letters', 'ILOU1234'],
    ['15 hex digits', '0123456789abcde'],
    ['65 hex digits', 'a'.repeat(65)],
    ['a UUID with a word', '3f2b8c1e-9a4d-4e6f-8b1a-callsupport1'],
    ['a line break', '9f86d081884c7d65\n9a2feaa0c55ad015'],
  ])('refuses %s: %j', (_kind, value) => {
    expect(isErrorReference(value)).toBe(false);
  });

  it('refuses nothing given', () => {
    expect(isErrorReference(null)).toBe(false);
    expect(isErrorReference(undefined)).toBe(false);
  });
});
