import { describe, expect, it } from 'vitest';
import { passwordStrength } from './password-strength.ts';

const NOBODY = {};

describe('passwordStrength (zxcvbn-ts with the service’s word lists)', () => {
  it('knows German words and first names, not only English ones', () => {
    // Each word is on one German list only: not on the English, common-password or Wikipedia lists.
    expect(passwordStrength('Vielleicht#2', NOBODY)).toBeLessThan(3);
    expect(passwordStrength('Schwester#2', NOBODY)).toBeLessThan(3);
    expect(passwordStrength('Annalena#2', NOBODY)).toBeLessThan(3);
  });

  it('knows common passwords, English words and keyboard walks', () => {
    expect(passwordStrength('Welcome@2026', NOBODY)).toBe(2);
    expect(passwordStrength('Zaq12wsx!@#$', NOBODY)).toBe(2);
    expect(passwordStrength('Aa123456789!', NOBODY)).toBe(2);
  });

  it('tells the estimator the person’s name, so look-alike spellings of it are weak too', () => {
    const name = { displayName: 'Quenby Throckmorton' };
    expect(passwordStrength('Qu3nbyThr0ckm0rt0n!', name)).toBe(1);
    expect(passwordStrength('Qu3nbyThr0ckm0rt0n!', NOBODY)).toBe(4);
  });

  it('takes the product’s and the person’s names out before judging the rest', () => {
    expect(passwordStrength('QuenbyThrockmorton!7', { displayName: 'Quenby Throckmorton' })).toBe(0);
    expect(passwordStrength('MyKeycard#2026', NOBODY)).toBe(1);
    expect(passwordStrength('Ada.Lovelace@example.com1', { email: 'ada.lovelace@example.com' })).toBe(0);
  });

  it('rates an unusual passphrase and a random password very unguessable, and the same each time', () => {
    expect(passwordStrength('Violet-Harbour-Lantern-93', NOBODY)).toBe(4);
    expect(passwordStrength('Kv9#mP2$xQ7!', NOBODY)).toBe(4);
    expect(passwordStrength('Kv9#mP2$xQ7!', NOBODY)).toBe(4);
  });

  it('judges a long password by its first 40 characters, in bounded time', () => {
    const start = Date.now();
    // 256 look-alike characters: without the limits one estimate takes seconds.
    expect(passwordStrength('4@3!1|0$5+7'.repeat(24).slice(0, 256), NOBODY)).toBe(4);
    expect(passwordStrength(`${'a'.repeat(40)}Kv9#mP2$xQ7!`, NOBODY)).toBe(0);
    expect(Date.now() - start).toBeLessThan(5_000);
  });
});
