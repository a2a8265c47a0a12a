import { describe, expect, it } from 'vitest';
import { cookiePolicy } from './cookie-policy.ts';

/** DESIGN §2 Cookies, written out: the names and attributes of every cookie, under https and http. */
const HARDENED = { httpOnly: true, sameSite: 'lax', signed: true };

describe('the cookies of a service under https', () => {
  // Each test builds its own policy: built once at collection time, a change would go unnoticed by
  // mutation testing, which only sees code run inside a test.
  const policy = () => cookiePolicy('https://login.example.com');

  it('pins the cookies of path / to this origin with __Host-, and sends them over https only', () => {
    expect(policy().csrf).toEqual({ name: '__Host-csrf', options: { path: '/', secure: true, ...HARDENED } });
    expect(policy().federation).toEqual({
      name: '__Host-federation',
      options: { path: '/', secure: true, ...HARDENED },
    });
  });

  it("gives the provider's resume cookie, whose path is not /, the __Secure- prefix", () => {
    expect(policy().provider).toEqual({
      names: {
        session: '__Host-session',
        interaction: '__Host-interaction',
        resume: '__Secure-interaction_resume',
      },
      long: { secure: true, ...HARDENED },
      short: { secure: true, ...HARDENED },
    });
  });
});

describe('the cookies of a service under http (development)', () => {
  const policy = () => cookiePolicy('http://localhost:3000');

  it('uses names without a prefix, which a browser refuses without Secure, and no Secure flag', () => {
    expect(policy().csrf).toEqual({ name: 'csrf', options: { path: '/', secure: false, ...HARDENED } });
    expect(policy().federation).toEqual({
      name: 'federation',
      options: { path: '/', secure: false, ...HARDENED },
    });
    expect(policy().provider).toEqual({
      names: { session: '_session', interaction: '_interaction', resume: '_interaction_resume' },
      long: { secure: false, ...HARDENED },
      short: { secure: false, ...HARDENED },
    });
  });

  it('decides by the scheme, not by a host or a port that looks secure', () => {
    expect(cookiePolicy('http://https.example:443').csrf.name).toBe('csrf');
  });
});
