import { describe, expect, it } from 'vitest';
import { cookieSigner } from './cookie-signer.ts';

// Made by keygrip 1.1.0 (the cookies package's default signer) with the keys ['one-key', 'two-key']
// and ['two-key']: cookies signed before the switch must keep verifying.
const KEYGRIP_SIGNATURES = {
  '_interaction=abc': { 'one-key': '6vGOo5HcIEmQPIDb_RLi-WtWZlc', 'two-key': 'QsXg5loJhW-NsH5wV4pT0gE5II4' },
  'session=xyz': { 'one-key': '7csLfUrxoscKsj_Y9PiqToQjbeA', 'two-key': 'as5O7Lwh_6IXYbeQWqK1Yp6TIc4' },
} as const;

describe('the provider cookie signer', () => {
  it('signs as keygrip does, with the first key', () => {
    const signer = cookieSigner(['one-key', 'two-key']);
    for (const [data, byKey] of Object.entries(KEYGRIP_SIGNATURES)) {
      expect(signer.sign(data)).toBe(byKey['one-key']);
      expect(cookieSigner(['two-key']).sign(data)).toBe(byKey['two-key']);
    }
  });

  it('names the key that made a signature, so a rotated-out key still verifies and is re-signed', () => {
    const signer = cookieSigner(['one-key', 'two-key']);
    const data = '_interaction=abc';
    expect(signer.index(data, KEYGRIP_SIGNATURES[data]['one-key'])).toBe(0);
    expect(signer.index(data, KEYGRIP_SIGNATURES[data]['two-key'])).toBe(1);
    expect(signer.verify(data, KEYGRIP_SIGNATURES[data]['two-key'])).toBe(true);
  });

  it('refuses a signature of other data, another key, a changed character or another length', () => {
    const signer = cookieSigner(['one-key', 'two-key']);
    const data = '_interaction=abc';
    const good = KEYGRIP_SIGNATURES[data]['one-key'];
    const refused = [
      KEYGRIP_SIGNATURES['session=xyz']['one-key'],
      cookieSigner(['three-key']).sign(data),
      `${good.slice(0, -1)}${good.endsWith('c') ? 'd' : 'c'}`,
      good.slice(0, -1),
      `${good}=`,
      '',
    ];
    for (const digest of refused) {
      expect(signer.index(data, digest), digest).toBe(-1);
      expect(signer.verify(data, digest), digest).toBe(false);
    }
  });

  it('will not start without a key', () => {
    expect(() => cookieSigner([])).toThrow(/at least one key/);
  });
});
