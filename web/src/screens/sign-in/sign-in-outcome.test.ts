import { getCalls } from '@keycard/contract';
import { describe, expect, it } from 'vitest';
import { EXTERNAL_PROVIDER_PATH, externalProviderUrl, loginMove } from './sign-in-outcome.ts';

const BASE = 'https://id.example/base/';
const GUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const failed = { kind: 'failed' };
const answer = (fields: Partial<Parameters<typeof loginMove>[1] & object>) => ({
  isAuthenticated: false,
  redirectUrl: null,
  verificationType: 0 as const,
  verificationCode: null,
  ...fields,
});

describe('externalProviderUrl (SPEC §7 CheckUsername)', () => {
  it('uses the contract path', () => {
    expect(EXTERNAL_PROVIDER_PATH).toBe(getCalls.redirectToExternalIdentityProvider.path);
  });

  it('puts the base first and encodes returnUrl, provider GUID and login_hint', () => {
    const url = externalProviderUrl(
      BASE,
      {
        userHasExternalIdentityProvider: true,
        returnUrl: '/oidc/auth/u?product=A&B',
        externalIdentityProviderGuid: GUID,
      },
      'a b+c@corp.example',
      '/ignored',
    );
    expect(url).toBe(
      'https://id.example/base/api/RedirectToExternalIdentityProvider?returnUrl=%2Foidc%2Fauth%2Fu%3Fproduct%3DA%26B' +
        `&externalIdentityProviderGuid=${GUID}&login_hint=a+b%2Bc%40corp.example`,
    );
  });

  it("falls back to the page's ReturnUrl when the answer has none", () => {
    const url = externalProviderUrl(
      '',
      { userHasExternalIdentityProvider: true, returnUrl: null, externalIdentityProviderGuid: GUID },
      'a@corp.example',
      '/resume',
    );
    expect(new URL(url ?? '', 'http://spa.test').searchParams.get('returnUrl')).toBe('/resume');
  });

  it('answers null without an external provider or without its GUID', () => {
    const local = {
      userHasExternalIdentityProvider: false,
      returnUrl: null,
      externalIdentityProviderGuid: null,
    };
    expect(externalProviderUrl(BASE, local, 'a@b.c', '')).toBeNull();
    expect(
      externalProviderUrl(BASE, { ...local, userHasExternalIdentityProvider: true }, 'a@b.c', ''),
    ).toBeNull();
  });
});

describe('loginMove (SPEC §7/§8)', () => {
  it('leaves for the identity base plus redirectUrl on success', () => {
    expect(loginMove(BASE, answer({ isAuthenticated: true, redirectUrl: '/oidc/auth/u1' }), '')).toEqual({
      kind: 'leave',
      url: 'https://id.example/base/oidc/auth/u1',
    });
  });

  it.each(['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', ''])(
    'treats a success whose redirectUrl %j is no local path as failed',
    (redirectUrl) => {
      expect(loginMove(BASE, answer({ isAuthenticated: true, redirectUrl }), '')).toEqual(failed);
    },
  );

  it('routes an expired password to /ResetPassword/2/{code} and a lock to /locked, keeping the query', () => {
    const search = '?ReturnUrl=%2Fr';
    expect(loginMove(BASE, answer({ verificationType: 2, verificationCode: 'a/b c' }), search)).toEqual({
      kind: 'route',
      to: '/ResetPassword/2/a%2Fb%20c?ReturnUrl=%2Fr',
    });
    expect(loginMove(BASE, answer({ verificationType: 3 }), search)).toEqual({
      kind: 'route',
      to: '/locked?ReturnUrl=%2Fr',
    });
  });

  it('fails on no answer, type None, an expired password without code, and other types', () => {
    expect(loginMove(BASE, undefined, '')).toEqual(failed);
    expect(loginMove(BASE, answer({}), '')).toEqual(failed);
    expect(loginMove(BASE, answer({ verificationType: 2 }), '')).toEqual(failed);
    expect(loginMove(BASE, answer({ verificationType: 5 }), '')).toEqual(failed);
  });
});
