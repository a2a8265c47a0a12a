import { describe, expect, it } from 'vitest';
import { badCharacterPath } from './bad-characters.ts';

describe('badCharacterPath', () => {
  it('is undefined for plain input of any shape', () => {
    for (const value of [undefined, null, 1, true, 'plain', [], {}, { a: ['b', { c: 'd' }], e: 2 }]) {
      expect(badCharacterPath(value)).toBeUndefined();
    }
  });

  it('finds a bad string at the top, in an object, in a list and deep down', () => {
    expect(badCharacterPath('a\u0000')).toEqual([]);
    expect(badCharacterPath({ a: 'ok', b: 'x\u007f' })).toEqual(['b']);
    expect(badCharacterPath(['ok', '\ud800'])).toEqual([1]);
    expect(badCharacterPath({ jwks: { keys: [{ kty: 'EC' }, { crv: '\u001f' }] } })).toEqual([
      'jwks',
      'keys',
      1,
      'crv',
    ]);
  });

  it('answers the first in order and starts from the path it is given', () => {
    expect(badCharacterPath({ a: '\u0001', b: '\u0002' }, ['body'])).toEqual(['body', 'a']);
  });

  it('names a key that holds one itself, with the character escaped', () => {
    expect(badCharacterPath({ ok: { 'x\u0000y': 1 } })).toEqual(['ok', 'x\\u0000y']);
    expect(badCharacterPath({ '\ud83d\ude00\u001b': 1 })).toEqual(['\ud83d\ude00\\u001b']);
  });
});
