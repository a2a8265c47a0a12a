import { describe, expect, it } from 'vitest';
import { originSourceOf, withFormActionSource } from './form-action.ts';

describe('the form-action source of a client page', () => {
  it('is the origin of an http(s) URI, IDNs in punycode', () => {
    expect(originSourceOf('https://planner.example:8443/callback?x=1')).toBe('https://planner.example:8443');
    expect(originSourceOf('http://127.0.0.1:5000/signed-out')).toBe('http://127.0.0.1:5000');
    expect(originSourceOf('https://bücher.example/cb')).toBe('https://xn--bcher-kva.example');
  });

  it('is nothing for a host that would end the directive, another scheme or no URI', () => {
    for (const uri of ['https://a;b.example/cb', "https://a'b.example/cb", 'com.planner:/cb', 'cb', 42]) {
      expect(originSourceOf(uri)).toBeUndefined();
    }
  });

  it('is added once to form-action alone, in the policy as the provider rewrote it', () => {
    // The provider joins the directives with ';' after adding its script hash.
    const policy =
      "default-src 'self';script-src 'self' 'sha256-x';form-action 'self';frame-ancestors 'none'";
    const allowed = withFormActionSource(policy, 'https://planner.example');
    expect(allowed).toBe(
      "default-src 'self';script-src 'self' 'sha256-x';form-action 'self' https://planner.example;frame-ancestors 'none'",
    );
    expect(withFormActionSource(allowed, 'https://planner.example')).toBe(allowed);
  });
});
