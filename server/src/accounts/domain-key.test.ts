import { describe, expect, it } from 'vitest';
import { bindingLookupKey, normalizeDomain } from './domain-key.ts';

const label = (length: number) => 'a'.repeat(length);

describe('the lookup form of an e-mail domain', () => {
  it('is lower-case IDNA ASCII, trimmed, whatever the spelling', () => {
    expect(normalizeDomain(' Example.COM ')).toBe('example.com');
    expect(normalizeDomain('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(normalizeDomain('bu\u0308cher.example')).toBe('xn--bcher-kva.example');
    // Lower case first, as a browser does: upper case would turn ß into SS, another name.
    expect(normalizeDomain('STRAßE.example')).toBe('xn--strae-oqa.example');
    expect(normalizeDomain('xn--bcher-kva.example')).toBe('xn--bcher-kva.example');
    expect(normalizeDomain('mail.sub-1.example.co')).toBe('mail.sub-1.example.co');
    expect(normalizeDomain('a.b.example.xn--p1ai')).toBe('a.b.example.xn--p1ai');
  });

  it('is empty for what is no dotted host name', () => {
    for (const value of [
      '',
      'localhost',
      'example.c',
      '.example.com',
      'example.com.',
      'example..com',
      '-example.com',
      'example-.com',
      'exa_mple.com',
      'ex ample.com',
      'user@example.com',
      // What a URL's host parser would read as example.com; an e-mail address's domain never is
      // (identifiers.ts), so neither is a binding's key.
      'example\u3002com',
      'example\uff0ecom',
      'example%2ecom',
      'example.com/x',
    ]) {
      expect(normalizeDomain(value), value).toBe('');
    }
  });

  it('takes labels of up to 63 characters and a name of up to 253', () => {
    expect(normalizeDomain(`${label(63)}.example`)).toBe(`${label(63)}.example`);
    expect(normalizeDomain(`${label(64)}.example`)).toBe('');
    expect(normalizeDomain(`example.${label(63)}`)).toBe(`example.${label(63)}`);
    expect(normalizeDomain(`example.${label(64)}`)).toBe('');
    // Three labels of 63, one of 61 and the dots between them: 253 characters; one more is too long.
    const longest = `${label(63)}.${label(63)}.${label(63)}.${label(61)}`;
    expect(longest).toHaveLength(253);
    expect(normalizeDomain(longest)).toBe(longest);
    expect(normalizeDomain(`${longest}a`)).toBe('');
  });

  it('gives a binding key for a dotted host name and none for anything else', () => {
    expect(bindingLookupKey('Bücher.Example')).toBe('xn--bcher-kva.example');
    expect(bindingLookupKey('')).toBeNull();
    expect(bindingLookupKey('localhost')).toBeNull();
  });
});
