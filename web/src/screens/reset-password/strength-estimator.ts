import {
  judgeStrength,
  type PasswordContext,
  STRENGTH_ESTIMATE_LIMITS,
  type StrengthScore,
  type TextKey,
} from '@keycard/contract';
import { type TranslationKeys, ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary as commonDictionary } from '@zxcvbn-ts/language-common';
import { dictionary as germanDictionary } from '@zxcvbn-ts/language-de';
import { dictionary as englishDictionary } from '@zxcvbn-ts/language-en';

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

type AdviceGroup = 'warnings' | 'suggestions';

/**
 * Each of the estimator's messages as the key of its text: SPEC §1 has every text come from the
 * localised text resource, so the estimator answers keys and the meter shows their texts in the
 * page's language. A message the estimator adds in a later version fails the build here (the type)
 * and at start-up (the estimator refuses incomplete translations), never reaching the page in English.
 */
const ADVICE: { readonly [G in AdviceGroup]: Readonly<Record<keyof TranslationKeys[G], TextKey>> } = {
  warnings: {
    straightRow: 'passwordStrengthWarningStraightRow',
    keyPattern: 'passwordStrengthWarningKeyPattern',
    simpleRepeat: 'passwordStrengthWarningSimpleRepeat',
    extendedRepeat: 'passwordStrengthWarningExtendedRepeat',
    sequences: 'passwordStrengthWarningSequences',
    recentYears: 'passwordStrengthWarningRecentYears',
    dates: 'passwordStrengthWarningDates',
    topTen: 'passwordStrengthWarningTopTen',
    topHundred: 'passwordStrengthWarningTopHundred',
    common: 'passwordStrengthWarningCommon',
    similarToCommon: 'passwordStrengthWarningSimilarToCommon',
    wordByItself: 'passwordStrengthWarningWordByItself',
    namesByThemselves: 'passwordStrengthWarningNamesByThemselves',
    commonNames: 'passwordStrengthWarningCommonNames',
    userInputs: 'passwordStrengthWarningUserInputs',
    pwned: 'passwordStrengthWarningPwned',
  },
  suggestions: {
    l33t: 'passwordStrengthSuggestionL33t',
    reverseWords: 'passwordStrengthSuggestionReverseWords',
    allUppercase: 'passwordStrengthSuggestionAllUppercase',
    capitalization: 'passwordStrengthSuggestionCapitalization',
    dates: 'passwordStrengthSuggestionDates',
    recentYears: 'passwordStrengthSuggestionRecentYears',
    associatedYears: 'passwordStrengthSuggestionAssociatedYears',
    sequences: 'passwordStrengthSuggestionSequences',
    repeated: 'passwordStrengthSuggestionRepeated',
    longerKeyboardPattern: 'passwordStrengthSuggestionLongerKeyboardPattern',
    anotherWord: 'passwordStrengthSuggestionAnotherWord',
    useWords: 'passwordStrengthSuggestionUseWords',
    noNeed: 'passwordStrengthSuggestionNoNeed',
    pwned: 'passwordStrengthSuggestionPwned',
  },
};

/** The estimator also words its crack-time estimates, which the form never shows. */
const UNSHOWN_TIMES: TranslationKeys['timeEstimation'] = {
  ltSecond: '',
  second: '',
  seconds: '',
  minute: '',
  minutes: '',
  hour: '',
  hours: '',
  day: '',
  days: '',
  month: '',
  months: '',
  year: '',
  years: '',
  centuries: '',
};

const ADVICE_KEYS: ReadonlySet<string> = new Set([
  ...Object.values(ADVICE.warnings),
  ...Object.values(ADVICE.suggestions),
]);

/** The estimator answers with the words it was given: the keys of ADVICE. */
function isAdvice(message: string): message is TextKey {
  return ADVICE_KEYS.has(message);
}

/**
 * What the form shows as the person types: the level, and the estimator's advice as keys of the text
 * resource.
 */
export interface StrengthFeedback {
  readonly score: StrengthScore;
  readonly warning: TextKey | null;
  readonly suggestions: readonly TextKey[];
}

export type EstimateStrength = (password: string, context: PasswordContext) => StrengthFeedback;

let estimator: EstimateStrength | undefined;

/** The estimator, built on first use: building it indexes every list. Its advice is in no language. */
export function strengthEstimator(): EstimateStrength {
  estimator ??= createStrengthEstimator();
  return estimator;
}

function createStrengthEstimator(): EstimateStrength {
  const zxcvbn = new ZxcvbnFactory({
    dictionary: { ...commonDictionary, ...englishDictionary, ...german },
    graphs: adjacencyGraphs,
    translations: { ...ADVICE, timeEstimation: UNSHOWN_TIMES },
    ...STRENGTH_ESTIMATE_LIMITS,
  });
  return (password, context) => {
    const judged = judgeStrength(
      (candidate, words) => zxcvbn.check(candidate, [...words]),
      password,
      context,
    );
    const { warning, suggestions } = judged.estimate.feedback;
    // Weak only for the names in it: say so, with the estimator's warning about personal data.
    const contextWarning = judged.leansOnContext ? ADVICE.warnings.userInputs : null;
    return {
      score: judged.score,
      warning: warning !== null && isAdvice(warning) ? warning : contextWarning,
      suggestions: suggestions.filter(isAdvice),
    };
  };
}
