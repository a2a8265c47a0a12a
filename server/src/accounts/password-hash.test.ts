import { hash } from '@node-rs/argon2';
import { describe, expect, it } from 'vitest';
import { ARGON2_PARAMETERS, hashPassword, needsRehash, verifyPassword } from './password-hash.ts';

describe('password hashing', () => {
  it('hashes with argon2id at the configured parameters and verifies only the right password', async () => {
    const stored = await hashPassword('Correct-Horse-42');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
    expect(await verifyPassword(stored, 'Correct-Horse-42')).toBe(true);
    expect(await verifyPassword(stored, 'correct-horse-42')).toBe(false);
    expect(needsRehash(stored)).toBe(false);
  });

  it('treats the NFC and NFD spellings of a password as the same password', async () => {
    const stored = await hashPassword('Caf\u00e9-Passw0rd!!');
    expect(await verifyPassword(stored, 'Cafe\u0301-Passw0rd!!')).toBe(true);
  });

  it('answers false without a stored hash, after doing the same work', async () => {
    expect(await verifyPassword(null, 'anything at all')).toBe(false);
  });

  it('verifies a missing hash against one dummy argon2id hash of today’s parameters, exactly once, and never answers true', async () => {
    const verified: string[] = [];
    const yes = async (storedHash: string) => {
      verified.push(storedHash);
      return true;
    };
    expect(await verifyPassword(null, 'anything at all', yes)).toBe(false);
    expect(await verifyPassword(null, 'something else', yes)).toBe(false);
    expect(verified).toHaveLength(2);
    expect(verified[0]).toMatch(/^\$argon2id\$v=19\$m=12288,t=3,p=1\$/);
    expect(verified[1]).toBe(verified[0]);
  });

  it('answers false for a malformed stored hash instead of throwing', async () => {
    expect(await verifyPassword('not-a-hash', 'x')).toBe(false);
  });

  it('flags hashes made with other parameters for re-hashing', async () => {
    const old = await hash('pw', {
      ...ARGON2_PARAMETERS,
      memoryCost: 7168,
      timeCost: 5,
    });
    expect(needsRehash(old)).toBe(true);
    expect(await verifyPassword(old, 'pw')).toBe(true);
  });
});
