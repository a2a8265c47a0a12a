import { describe, expect, it } from 'vitest';
import {
  judgeStrength,
  passwordContextWords,
  type StrengthScore,
  withoutContextWords,
} from './password-strength.ts';

const ADA = { email: 'Ada.Lovelace@Example.co.uk', displayName: 'Ada  Lovelace-Byron' };

describe('passwordContextWords', () => {
  it('holds the product name, the address, its parts and the name and its words, longest first', () => {
    expect(passwordContextWords(ADA)).toEqual([
      'ada.lovelace@example.co.uk',
      'ada  lovelace-byron',
      'adalovelace-byron',
      'ada.lovelace',
      'example.co',
      'lovelace',
      'keycard',
      'example',
      'byron',
      'ada',
    ]);
  });

  it('knows only the product name without a person', () => {
    expect(passwordContextWords({})).toEqual(['keycard']);
    expect(passwordContextWords({ email: null, displayName: null })).toEqual(['keycard']);
    expect(passwordContextWords({ email: '', displayName: '' })).toEqual(['keycard']);
  });

  it('leaves out words under 3 characters and the top-level domain', () => {
    expect(passwordContextWords({ email: 'jo.li@ab.de', displayName: ' Jo Li ' })).toEqual([
      'jo.li@ab.de',
      'keycard',
      'jo.li',
      'jo li',
      'joli',
    ]);
  });

  it('takes an address without @ as a local part, and lower-cases the NFC form', () => {
    expect(passwordContextWords({ email: 'Zoe\u0308' })).toEqual(['keycard', 'zoë']);
    expect(passwordContextWords({ email: 'ada.lovelace.example' })).toEqual([
      'ada.lovelace.example',
      'lovelace',
      'keycard',
      'example',
      'ada',
    ]);
  });
});

describe('withoutContextWords', () => {
  it('takes out every context word in any letter case, the longest first', () => {
    expect(withoutContextWords('MyKEYCARD#keycard26', ['keycard'])).toBe('My#26');
    expect(withoutContextWords('AdaLovelace!', ['adalovelace', 'ada', 'lovelace'])).toBe('!');
    expect(withoutContextWords('x.y+z(1)', ['.y+z(', 'x'])).toBe('1)');
  });

  it('changes nothing but the composed form without words', () => {
    expect(withoutContextWords('Some-Password-1', [])).toBe('Some-Password-1');
    expect(withoutContextWords('Zoe\u0308', [])).toBe('Zoë');
    expect(withoutContextWords('Zoe\u0308-42', ['zoë'])).toBe('-42');
  });
});

describe('judgeStrength', () => {
  /** A stand-in estimator: the score is the length over 4, capped at 4; it records what it was asked. */
  function lengthEstimator() {
    const asked: [string, readonly string[]][] = [];
    const estimate = (password: string, words: readonly string[]) => {
      asked.push([password, words]);
      return { score: Math.min(4, Math.floor(password.length / 4)) as StrengthScore, label: password };
    };
    return { asked, estimate };
  }

  it('is the lower of the whole password and what is left without the context words', () => {
    const { asked, estimate } = lengthEstimator();
    const judgement = judgeStrength(estimate, 'KeycardKeycard12', {});
    expect(judgement).toEqual({
      score: 0,
      estimate: { score: 4, label: 'KeycardKeycard12' },
      leansOnContext: true,
    });
    expect(asked).toEqual([
      ['KeycardKeycard12', ['keycard']],
      ['12', ['keycard']],
    ]);
  });

  it('asks once when no context word is in the password', () => {
    const { asked, estimate } = lengthEstimator();
    expect(judgeStrength(estimate, 'Quokka-Ferment-71', ADA)).toEqual({
      score: 4,
      estimate: { score: 4, label: 'Quokka-Ferment-71' },
      leansOnContext: false,
    });
    expect(asked).toHaveLength(1);
  });

  it('does not lean on the context when the rest is as strong', () => {
    const { estimate } = lengthEstimator();
    const judgement = judgeStrength(estimate, 'Ada-Violet-Harbour-93', ADA);
    expect(judgement.score).toBe(4);
    expect(judgement.leansOnContext).toBe(false);
  });
});
