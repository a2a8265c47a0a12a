import { describe, expect, it } from 'vitest';
import { emailDomain, identifierHash, normalizeEmail } from './identifiers.ts';

describe('identifiers (DESIGN §2: trimmed, NFC, compared case-insensitively)', () => {
  it('normalises an address by trimming, composing to NFC and lower-casing', () => {
    expect(normalizeEmail('  Ada@Example.COM\t')).toBe('ada@example.com');
    expect(normalizeEmail('Jose\u0301@Example.com')).toBe('jos\u00e9@example.com');
  });

  it('keys the failure counter by the normalised address, without the address in it', () => {
    const key = identifierHash('Ada@Example.com');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(identifierHash(' ada@example.COM ')).toBe(key);
    expect(identifierHash('grace@example.com')).not.toBe(key);
  });

  it('answers the normalised domain after the last @, or nothing without an @', () => {
    expect(emailDomain(' Ada@Example.COM ')).toBe('example.com');
    expect(emailDomain('"a@b"@Mail.Example')).toBe('mail.example');
    expect(emailDomain('@example.com')).toBe('example.com');
    expect(emailDomain('ada@')).toBe('');
    expect(emailDomain('no-at-sign.example')).toBe('');
  });
});
