import {
  judgeStrength,
  type Language,
  type PasswordContext,
  STRENGTH_ESTIMATE_LIMITS,
  type StrengthScore,
} from '@keycard/contract';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { translations as germanAdvice, dictionary as germanDictionary } from '@zxcvbn-ts/language-de';
import { translations as englishAdvice, dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

/**
 * The strength estimator of the reset form, loaded with `import()` once the form shows
 * (use-password-strength.ts): its word lists are most of the SPA's bytes and no other screen needs
 * them. The same lists and limits as the service's (server/src/accounts/password-strength.ts), so
 * the form's estimate is the service's verdict, except for the address, which the form never knows.
 */

/** The German package names its lists without a language suffix; the English one adds "-en". */
const german = Object.fromEntries(
  Object.entries(germanDictionary).map(([name, words]) => [`${name}-de`, words]),
);

/** The estimator's own advice, in each language of the text resource. */
const ADVICE: Readonly<Record<Language, typeof englishAdvice>> = { en: englishAdvice, de: germanAdvice };

/** What the form shows as the person types: the level, and the estimator's advice in their language. */
export interface StrengthFeedback {
  readonly score: StrengthScore;
  readonly warning: string | null;
  readonly suggestions: readonly string[];
}

export type EstimateStrength = (password: string, context: PasswordContext) => StrengthFeedback;

const estimators = new Map<Language, EstimateStrength>();

/** The estimator whose advice is in `language`; built once per language, as building it indexes every list. */
export function strengthEstimatorFor(language: Language): EstimateStrength {
  const known = estimators.get(language);
  if (known) return known;
  const estimator = createStrengthEstimator(language);
  estimators.set(language, estimator);
  return estimator;
}

function createStrengthEstimator(language: Language): EstimateStrength {
  const advice = ADVICE[language];
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary, ...german },
    graphs: adjacencyGraphs,
    translations: advice,
    ...STRENGTH_ESTIMATE_LIMITS,
  });
  return (password, context) => {
    const judged = judgeStrength(
      (candidate, words) => zxcvbn.check(candidate, [...words]),
      password,
      context,
    );
    const { warning, suggestions } = judged.estimate.feedback;
    // Weak only for the names in it: say so, in the estimator's words for personal data.
    const contextWarning = judged.leansOnContext ? advice.warnings.userInputs : null;
    return { score: judged.score, warning: warning ?? contextWarning, suggestions };
  };
}
