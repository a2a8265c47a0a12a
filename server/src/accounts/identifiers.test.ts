import { describe, expect, it } from 'vitest';
import { emailDomain, identifierHash, normalizeEmail } from './identifiers.ts';

describe('identifiers (DESIGN §2: trimmed, NFC, compared case-insensitively)', () => {
  it('normalises an address by trimming, composing to NFC and lower-casing', () => {
    expect(normalizeEmail('  Ada@Example.COM\t')).toBe('ada@example.com');
    expect(normalizeEmail('Jose\u0301@Example.com')).toBe('jos\u00e9@example.com');
  });

  it('writes the domain in its IDNA ASCII form, as a browser e-mail field sends it; the local part as typed', () => {
    expect(normalizeEmail('Ada@Bücher.Example')).toBe('ada@xn--bcher-kva.example');
    expect(normalizeEmail('ada@xn--BCHER-kva.example')).toBe('ada@xn--bcher-kva.example');
    expect(normalizeEmail('Jösé@Müller.example')).toBe('jösé@xn--mller-kva.example');
    // The last @ starts the domain; a quoted local part keeps its own.
    expect(normalizeEmail('"a@Bücher"@Bücher.example')).toBe('"a@bücher"@xn--bcher-kva.example');
  });

  it('keeps a domain that is no host name as written, lower-cased, and a text without @ whole', () => {
    expect(normalizeEmail('Ada@Exa mple.com')).toBe('ada@exa mple.com');
    expect(normalizeEmail('Ada@')).toBe('ada@');
    expect(normalizeEmail('no-at-sign.Example')).toBe('no-at-sign.example');
    expect(normalizeEmail('Bücher.example')).toBe('bücher.example');
    // Only a plain host name is converted: a URL host parser would cut, decode or rewrite these, and
    // different addresses would share a key.
    for (const kept of [
      'ada@bücher.example/x',
      'ada@example.com/x',
      'ada@ex%61mple.com',
      'ada@0x7f.1',
      'ada@bücher。example',
    ]) {
      expect(normalizeEmail(kept)).toBe(kept);
    }
    // An empty local part still has a domain.
    expect(normalizeEmail('@Bücher.example')).toBe('@xn--bcher-kva.example');
  });

  it('keys the failure counter by the normalised address, without the address in it', () => {
    const key = identifierHash('Ada@Example.com');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(identifierHash(' ada@example.COM ')).toBe(key);
    expect(identifierHash('grace@example.com')).not.toBe(key);
    // One counter for both spellings of a domain: a second spelling is no second lockout budget.
    expect(identifierHash('ada@xn--bcher-kva.example')).toBe(identifierHash('Ada@Bücher.example'));
  });

  it('answers the normalised domain after the last @, or nothing without an @', () => {
    expect(emailDomain(' Ada@Example.COM ')).toBe('example.com');
    expect(emailDomain('"a@b"@Mail.Example')).toBe('mail.example');
    expect(emailDomain('@example.com')).toBe('example.com');
    expect(emailDomain('ada@')).toBe('');
    expect(emailDomain('no-at-sign.example')).toBe('');
    expect(emailDomain('ada@Bücher.example')).toBe('xn--bcher-kva.example');
  });
});
