import { beforeAll, describe, expect, it } from 'vitest';
import { brokenPasswordRules, type PasswordRule } from '../../../server/src/accounts/password-policy.ts';
import { passwordStrength } from '../../../server/src/accounts/password-strength.ts';
import { localReturnPathOrNull } from '../../../server/src/redirects/redirect-rules.ts';
import { safeTarget } from '../../../web/src/routing/link-targets.ts';
import { meetsPolicy, REQUIREMENTS } from '../../../web/src/screens/reset-password/password-policy.ts';
import { strengthEstimator } from '../../../web/src/screens/reset-password/strength-estimator.ts';
import { isLocalReturnPath, MAX_REDIRECT_LENGTH } from './local-path.ts';
import { PASSWORD_COMPOSITION_RULES, type PasswordCompositionRuleId } from './password-composition.ts';

/**
 * The rules of SPEC §5 and DESIGN §2 are written once, in the contract; the SPA and the service each
 * reach them through their own code. Every case below runs through the contract's rule and through
 * both sides' entry points, so a side that stops using the contract, or wraps it differently, fails
 * here rather than in front of a person whose password the SPA accepts and the service refuses.
 */

interface PasswordCase {
  readonly password: string;
  /** The composition rules it breaks, in the contract's order; empty when it meets SPEC §5. */
  readonly broken: readonly PasswordCompositionRuleId[];
}

const PASSWORD_CASES: readonly (readonly [string, PasswordCase])[] = [
  ['every class, 16 characters', { password: 'Correct-Horse-42', broken: [] }],
  ['every class, exactly 12', { password: 'Ab1!Cd2?Ef3#', broken: [] }],
  ['empty', { password: '', broken: ['length', 'digit', 'lowercase', 'uppercase', 'special'] }],
  ['11 characters', { password: 'Abcdefgh1!x', broken: ['length'] }],
  ['12 characters', { password: 'Abcdefgh1!xy', broken: [] }],
  ['an emoji counts once: 11 code points', { password: 'Abcdefgh1!😀', broken: ['length'] }],
  ['an emoji counts once: 12 code points', { password: 'Abcdefgh1!😀z', broken: [] }],
  ['e + combining acute is one character', { password: 'Abcdefgh1!e\u0301', broken: ['length'] }],
  ['no digit', { password: 'Correct-Horse-xy', broken: ['digit'] }],
  ['a superscript two is no digit', { password: 'Abcdefghij!²', broken: ['digit'] }],
  ['an Arabic-Indic digit is one', { password: 'Abcdefghij!٣', broken: [] }],
  ['no lowercase letter', { password: 'CORRECT-HORSE-42', broken: ['lowercase'] }],
  ['ß is a lowercase letter', { password: 'ABCDEFGH1!Xß', broken: [] }],
  ['no uppercase letter', { password: 'correct-horse-42', broken: ['uppercase'] }],
  ['Ä is an uppercase letter', { password: 'abcdefgh1!xÄ', broken: [] }],
  ['A + combining diaeresis is an uppercase letter', { password: 'abcdefgh1!xA\u0308', broken: [] }],
  ['a titlecase letter is neither lower nor upper', { password: 'ǅabcdefgh1!x', broken: ['uppercase'] }],
  ['no symbol', { password: 'CorrectHorse4242', broken: ['special'] }],
  ['ÿ is a letter, not a symbol', { password: 'Abcdefgh1xÿz', broken: ['special'] }],
  ['a combining mark is no symbol once composed', { password: 'Abcdefgh1xye\u0301', broken: ['special'] }],
  ['a space is non-alphanumeric', { password: 'Abcdefgh1 yz', broken: [] }],
  ['a no-break space is non-alphanumeric', { password: 'Abcdefgh1\u00a0yz', broken: [] }],
  ['a superscript two is a number, not non-alphanumeric', { password: 'Abcdefghij1²', broken: ['special'] }],
  ['an invisible joiner does not count', { password: 'Abcdefgh1\u200dyz', broken: ['special'] }],
  ['a tab does not count', { password: 'Abcdefgh1\tyz', broken: ['special'] }],
  ['a line separator does not count', { password: 'Abcdefgh1\u2028yz', broken: ['special'] }],
  ['a paragraph separator does not count', { password: 'Abcdefgh1\u2029yz', broken: ['special'] }],
  ['a hyphen is a symbol', { password: 'Abcdefgh1-yz', broken: [] }],
  ['a currency sign is a symbol', { password: 'Abcdefgh1€yz', broken: [] }],
  ['an emoji is a symbol', { password: 'Abcdefgh1😀zz', broken: [] }],
  ['only digits', { password: '123456789012', broken: ['lowercase', 'uppercase', 'special'] }],
];

/** The name the service gives each composition rule in its answers (accounts/password-policy.ts). */
const SERVICE_NAME: Readonly<Record<PasswordCompositionRuleId, PasswordRule>> = {
  length: 'min_length',
  digit: 'digit',
  lowercase: 'lowercase',
  uppercase: 'uppercase',
  special: 'symbol',
};
const COMPOSITION_NAMES: readonly PasswordRule[] = Object.values(SERVICE_NAME);

describe('password composition (SPEC §5): the contract, the SPA and the service agree', () => {
  it.each(PASSWORD_CASES)('%s', (_name, { password, broken }) => {
    const contract = PASSWORD_COMPOSITION_RULES.filter((rule) => !rule.isMetBy(password)).map(
      (rule) => rule.id,
    );
    expect(contract, 'contract').toEqual(broken);

    // The SPA: the lines of the policy list left unmet, and whether Reset may be enabled.
    const spa = REQUIREMENTS.filter((requirement) => !requirement.isMetBy(password)).map(
      (requirement) => requirement.id,
    );
    expect(spa, 'SPA policy list').toEqual(broken);
    expect(meetsPolicy(password), 'SPA meetsPolicy').toBe(broken.length === 0);

    // The service: its composition rules among everything it refuses (none of these is a common one).
    const service = brokenPasswordRules(password).filter((rule) => COMPOSITION_NAMES.includes(rule));
    expect(service, 'service').toEqual(broken.map((id) => SERVICE_NAME[id]));
  });

  it('covers every composition rule, broken alone and met', () => {
    for (const rule of PASSWORD_COMPOSITION_RULES) {
      expect(PASSWORD_CASES.some(([, { broken }]) => broken.length === 1 && broken[0] === rule.id)).toBe(
        true,
      );
    }
    expect(PASSWORD_CASES.some(([, { broken }]) => broken.length === 0)).toBe(true);
  });
});

/** [password, the account's display name]: what the reset form knows (never the address). */
const STRENGTH_CASES: readonly (readonly [string, string | null])[] = [
  ['Keycard@2027', null],
  ['MyKeycard#2026', null],
  ['Welcome@2026', null],
  ['Aa123456789!', null],
  ['Zaq12wsx!@#$', null],
  ['AdaLovelace2026!', 'Ada Lovelace'],
  ['Lovelace#Ada1', 'Ada Lovelace'],
  ['Passwort!2024', 'Ada Lovelace'],
  ['Ada-Violet-Harbour-Lantern-93', 'Ada Lovelace'],
  ['Kv9#mP2$xQ7!', null],
  ['Frühlingsgefühle-im-Mai-7', 'Zoë Müller'],
];

describe('password strength in context: the reset form estimates what the service decides', () => {
  beforeAll(() => {
    // Both estimators index the same lists once (seconds on a busy machine).
    strengthEstimator();
    passwordStrength('', {});
  }, 60_000);

  it.each(STRENGTH_CASES)('%s (display name %s)', (password, displayName) => {
    const service = passwordStrength(password, { displayName });
    expect(strengthEstimator()(password, { displayName }).score, 'SPA').toBe(service);
  });

  it('spans the scale: some cases are refused at the default 3, some accepted', () => {
    const scores = STRENGTH_CASES.map(([password, displayName]) =>
      passwordStrength(password, { displayName }),
    );
    expect(scores.some((score) => score < 3)).toBe(true);
    expect(scores.some((score) => score >= 3)).toBe(true);
  });
});

const LONGEST = `/${'a'.repeat(MAX_REDIRECT_LENGTH - 1)}`;

/** [what, value, whether it is a local path]. */
const LOCAL_PATH_CASES: readonly (readonly [string, string, boolean])[] = [
  ['the root', '/', true],
  ['an interaction path with a query', '/oidc/auth/abc?product=Planner', true],
  ['a path carrying an encoded ReturnUrl', '/resetPassword/2/code?ReturnUrl=%2Foidc%2Fauth%2Fx', true],
  ['a path with a query', '/resume?x=1', true],
  ['the longest path', LONGEST, true],
  ['one character too long', `${LONGEST}a`, false],
  ['protocol-relative', '//evil.test', false],
  ['slash backslash', '/\\evil.test', false],
  ['a backslash further on', '/a\\b', false],
  ['two backslashes', '\\\\evil.test', false],
  ['a scheme without slashes', 'https:evil.test', false],
  ['an absolute URL', 'https://evil.test', false],
  ['a script URL', 'javascript:alert(1)', false],
  ['an encoded //', '/%2F%2Fevil.test', false],
  ['an encoded backslash', '/%5Cevil.test', false],
  ['a twice-encoded //', '/%252F%252Fevil.test', false],
  ['a four-times-encoded // stays text', '/%2525252F%2525252Fevil.test', true],
  ['a broken escape', '/%E0%A4%A', false],
  ['a path only once decoded', '%2Fresume', false],
  ['CR LF before //', '/\r\n//evil.test', false],
  ['a tab before /', '/\t/evil.test', false],
  ['a newline before /', '/\n/evil.example', false],
  ['a NUL', '/ok\u0000', false],
  ['a DEL', '/ok\u007f', false],
  ['a C1 control, which the URL parser percent-encodes', '/ok\u0085', true],
  ['a leading space', ' /x', false],
  ['a bare host', 'evil.test', false],
  ['a relative path', 'resume', false],
  ['empty', '', false],
];

describe('local path (DESIGN §2 Redirect rules): the contract, the SPA and the service agree', () => {
  it.each(LOCAL_PATH_CASES)('%s', (_name, value, local) => {
    expect(isLocalReturnPath(value), 'contract').toBe(local);
    // The SPA takes a target as a local path when safeTarget keeps it and it starts with '/' (an
    // http(s) URL it keeps too, for RedirectUrl targets, but never as a path).
    expect(safeTarget(value).startsWith('/'), 'SPA safeTarget').toBe(local);
    expect(localReturnPathOrNull(value), 'service').toBe(local ? value : null);
  });
});
