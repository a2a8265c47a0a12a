import {
  judgeStrength,
  type PasswordContext,
  STRENGTH_ESTIMATE_LIMITS,
  type StrengthScore,
} from '@keycard/contract';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as germanDictionary } from '@zxcvbn-ts/language-de';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

/** The German package names its lists without a language suffix; the English one adds "-en". */
const german = Object.fromEntries(
  Object.entries(germanDictionary).map(([name, words]) => [`${name}-de`, words]),
);

let estimator: ZxcvbnFactory | undefined;

/**
 * The estimator (zxcvbn-ts) with the common-password lists, English and German words and names (the
 * service's two languages) and keyboard patterns; built on first use, as building it indexes every list.
 */
function theEstimator(): ZxcvbnFactory {
  estimator ??= new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary, ...german },
    graphs: adjacencyGraphs,
    ...STRENGTH_ESTIMATE_LIMITS,
  });
  return estimator;
}

/**
 * The strength of `password` for the person it is for (contract judgeStrength): the estimate with the
 * product's name and the person's address and name as first guesses, and without them.
 */
export function passwordStrength(password: string, context: PasswordContext): StrengthScore {
  const zxcvbn = theEstimator();
  return judgeStrength((candidate, words) => zxcvbn.check(candidate, [...words]), password, context).score;
}
