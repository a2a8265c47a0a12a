import { PRODUCT_NAME } from '../constants.ts';

/**
 * Password strength on the estimator's scale (zxcvbn): 0 too guessable, 1 very guessable, 2 somewhat
 * guessable, 3 safely unguessable, 4 very unguessable. The service refuses a password below the
 * configured minimum (PASSWORD_MIN_SCORE); the SPA shows the estimate and its advice as the person types.
 */
export type StrengthScore = 0 | 1 | 2 | 3 | 4;

/**
 * What the SPA and the service ask of the estimator, so both judge alike and in bounded time: only the
 * first 40 characters are estimated (a password strong in those is strong; the estimator's time grows
 * steeply with length, a few seconds at 256) and at most 10 look-alike substitutions are tried.
 */
export const STRENGTH_ESTIMATE_LIMITS = { maxLength: 40, l33tMaxSubstitutions: 10 } as const;

/** What is known of the person choosing a password; either may be unknown (the SPA never knows the address). */
export interface PasswordContext {
  readonly email?: string | null;
  readonly displayName?: string | null;
}

/** Shorter pieces (initials, "de", "ab") are left to the estimator: taking them out would gut good passwords. */
const MIN_CONTEXT_WORD = 3;

function wordsOf(text: string): string[] {
  // Stryker disable next-line Regex: splitting at each separator instead of each run only adds empty words, which are shorter than MIN_CONTEXT_WORD
  return text.split(/[^\p{L}\p{N}]+/u);
}

/**
 * The words an attacker who knows the account tries first: the product's name, the e-mail address,
 * its local part and the pieces of it, the domain without its top level and its labels, the display
 * name with and without spaces and each of its words. Lower-case NFC, at least 3 characters, longest
 * first.
 */
export function passwordContextWords(context: PasswordContext): string[] {
  const words = new Set<string>();
  const add = (word: string) => {
    const normal = word.trim().toLowerCase();
    if ([...normal].length >= MIN_CONTEXT_WORD) words.add(normal);
  };
  // Composed first, so "e" + combining mark stays one letter of a word when it is split.
  const email = context.email?.normalize('NFC');
  const displayName = context.displayName?.normalize('NFC');
  add(PRODUCT_NAME);
  if (email) {
    const at = email.lastIndexOf('@');
    const local = at === -1 ? email : email.slice(0, at);
    // Stryker disable next-line ArrayDeclaration: a stand-in label of an address without @ would be the last label, which is never added
    const labels = at === -1 ? [] : email.slice(at + 1).split('.');
    add(email);
    add(local);
    for (const word of wordsOf(local)) add(word);
    // "example" of ada@example.com; the top level ("com") is part of too many words to count.
    const named = labels.slice(0, -1);
    add(named.join('.'));
    for (const label of named) add(label);
  }
  if (displayName) {
    add(displayName);
    // Stryker disable next-line Regex: removing each space or each run of them leaves the same word
    add(displayName.replace(/\s+/gu, ''));
    for (const word of wordsOf(displayName)) add(word);
  }
  return [...words].sort((a, b) => b.length - a.length);
}

const escaped = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `password` with every context word taken out, in any letter case, longest words first. */
export function withoutContextWords(password: string, words: readonly string[]): string {
  const pattern = new RegExp(words.map(escaped).join('|'), 'giu');
  return password.normalize('NFC').replace(pattern, '');
}

/** One estimate of a password, with the context words as the first guesses the estimator knows. */
export type StrengthEstimate<R extends { readonly score: StrengthScore }> = (
  password: string,
  contextWords: readonly string[],
) => R;

/** A password's strength in its context, and the estimate of it as typed (whose advice the SPA shows). */
export interface StrengthJudgement<R> {
  readonly score: StrengthScore;
  readonly estimate: R;
  /** True when the password is weaker without its context words: it leans on the person's or the product's name. */
  readonly leansOnContext: boolean;
}

/**
 * Strength that knows the context (DESIGN §2 Reset password): the lower of the estimate of the
 * password and of what is left once every context word is taken out. The product's and the person's
 * names are an attacker's first guesses, so they add no strength: "MyKeycard#2026" is judged as
 * "My#2026", "AdaLovelace2026!" as "2026!".
 */
export function judgeStrength<R extends { readonly score: StrengthScore }>(
  estimate: StrengthEstimate<R>,
  password: string,
  context: PasswordContext,
): StrengthJudgement<R> {
  const words = passwordContextWords(context);
  const whole = estimate(password, words);
  const rest = withoutContextWords(password, words);
  const restScore = rest === password.normalize('NFC') ? whole.score : estimate(rest, words).score;
  return {
    score: Math.min(whole.score, restScore) as StrengthScore,
    estimate: whole,
    leansOnContext: restScore < whole.score,
  };
}
