import '../../test-support/dom.ts';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  confirmField,
  fillBoth,
  json,
  newPasswordField,
  renderReset,
  resetButton,
  STRONG,
  stubService,
  VALID,
} from './reset-test-kit.tsx';

beforeEach(() => {
  stubService({ '/api/CheckVerification': () => json(VALID) });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Each policy line as [its text, its accessible state]. */
function policyLines(): string[][] {
  const list = screen.getByRole('list', { name: 'passwordPolicyHeading' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => [
      item.firstElementChild?.nextElementSibling?.textContent ?? '',
      item.lastElementChild?.textContent ?? '',
    ]);
}

const metStates = () => policyLines().map(([, state]) => state === 'requirementMet');

describe('ResetPasswordScreen validation (SPEC §5)', () => {
  it('lists the policy with the length filled in, each line stating whether it is met', async () => {
    const { user } = renderReset();
    await newPasswordField();
    expect(policyLines()).toEqual([
      ['passwordLengthRequirement 12', 'requirementNotMet'],
      ['passwordDigitRequirement', 'requirementNotMet'],
      ['passwordLowercaseRequirement', 'requirementNotMet'],
      ['passwordUppercaseRequirement', 'requirementNotMet'],
      ['passwordSpecialRequirement', 'requirementNotMet'],
    ]);
    await user.type(await newPasswordField(), 'a1');
    expect(metStates()).toEqual([false, true, true, false, false]);
  });

  it.each([
    ['abcdefghijk', [false, false, true, false, false]],
    ['ABCDEFGHIJKL', [true, false, false, true, false]],
    ['123456789012', [true, true, false, false, false]],
    ['!!!!!!!!!!!!', [true, false, false, false, true]],
    [STRONG, [true, true, true, true, true]],
  ])('marks exactly the rules %s meets', async (password, expected) => {
    const { user } = renderReset();
    await user.type(await newPasswordField(), password);
    expect(metStates()).toEqual(expected);
  });

  it('counts code points: 11 with an emoji are too short, 12 are enough', async () => {
    const { user } = renderReset();
    const field = await newPasswordField();
    await user.type(field, 'Abcdefgh1!😀');
    expect(metStates()[0]).toBe(false);
    await user.type(field, 'z');
    expect(metStates()[0]).toBe(true);
  });

  it('switches on only after the new-password field loses focus while holding a value', async () => {
    const { user } = renderReset();
    const field = await newPasswordField();
    // Leaving it empty does not switch validation on.
    await user.click(field);
    await user.click(confirmField());
    await user.type(field, 'short');
    expect(field.hasAttribute('aria-invalid')).toBe(false);
    expect(document.querySelectorAll('.reset__state')).toHaveLength(0);
    expect(document.querySelectorAll('.policy__item--unmet')).toHaveLength(0);

    await user.tab();
    expect(field.getAttribute('aria-invalid')).toBe('true');
    expect(document.querySelectorAll('.reset__state--invalid')).toHaveLength(1);
    expect(document.querySelectorAll('.policy__item--unmet').length).toBeGreaterThan(0);

    await user.clear(field);
    await user.type(field, STRONG);
    expect(field.getAttribute('aria-invalid')).toBe('false');
    expect(document.querySelectorAll('.reset__state--valid')).toHaveLength(1);
  });

  it('describes the new password by the policy list, then the strength estimate', async () => {
    const { user } = renderReset();
    const field = await newPasswordField();
    const describedBy = () =>
      (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id));
    const [policy, strength] = describedBy();
    expect(policy?.textContent).toContain('passwordPolicyHeading');
    expect(policy?.textContent).toContain('passwordLengthRequirement 12');
    expect(strength?.textContent).toBe('');
    await user.type(field, 'Keycard@2027');
    await waitFor(() => expect(describedBy()[1]?.textContent).toContain('passwordStrengthLabel'));
  });

  it('marks a different confirmation invalid, described by the must-match text', async () => {
    const { user } = renderReset();
    await fillBoth(user, STRONG, `${STRONG}?`);
    const confirm = confirmField();
    expect(confirm.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(confirm.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      'passwordsMustMatch',
    );

    await user.type(confirm, '{Backspace}');
    expect(confirm.getAttribute('aria-invalid')).toBe('false');
    expect(confirm.hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByText('passwordsMustMatch')).toBeNull();
  });

  it.each([
    ['both empty', '', ''],
    ['a weak password, confirmed', 'abcdefghijkl', 'abcdefghijkl'],
    ['11 code points with an emoji, confirmed', 'Abcdefgh1!😀', 'Abcdefgh1!😀'],
    ['a strong password, not confirmed', STRONG, ''],
    ['a strong password, confirmed differently', STRONG, 'Abcdefgh1!xz'],
  ])('keeps Reset disabled for %s', async (_case, password, confirm) => {
    const { user } = renderReset();
    const field = await newPasswordField();
    if (password) await user.type(field, password);
    if (confirm) await user.type(confirmField(), confirm);
    expect(resetButton().disabled).toBe(true);
  });

  it('enables Reset once both fields are valid and equal', async () => {
    const { user } = renderReset();
    await fillBoth(user, 'Abcdefgh1!😀z');
    expect(resetButton().disabled).toBe(false);
    await user.type(confirmField(), '{Backspace}');
    expect(resetButton().disabled).toBe(true);
  });

  it('names the rules still unmet under the list as the person types, in a polite live region', async () => {
    const { user } = renderReset();
    const field = await newPasswordField();
    const summary = document.querySelector('.policy__summary');
    expect(summary?.getAttribute('aria-live')).toBe('polite');
    expect(summary?.textContent).toBe('');

    await user.type(field, 'abcdefghijk');
    expect(summary?.textContent).toBe(
      'passwordRequirementsMissing passwordLengthRequirement 12; passwordDigitRequirement; ' +
        'passwordUppercaseRequirement; passwordSpecialRequirement',
    );
    await user.type(field, 'A1');
    expect(summary?.textContent).toBe('passwordRequirementsMissing passwordSpecialRequirement');
    await user.type(field, '!');
    expect(summary?.textContent).toBe('passwordRequirementsAllMet');
  });

  it.each([
    ['a weak password', 'abcdefghijkl', '', 'resetUnavailablePolicy'],
    ['a strong password, not confirmed', STRONG, '', 'resetUnavailableConfirm'],
    ['a strong password, confirmed differently', STRONG, 'Abcdefgh1!xz', 'resetUnavailableMismatch'],
  ])(
    'says why Reset is disabled for %s, describing the button by it',
    async (_case, password, confirm, why) => {
      const { user } = renderReset();
      const field = await newPasswordField();
      expect(document.getElementById(resetButton().getAttribute('aria-describedby') ?? '')?.textContent).toBe(
        'resetUnavailablePolicy',
      );
      await user.type(field, password);
      if (confirm) await user.type(confirmField(), confirm);
      const button = resetButton();
      expect(button.disabled).toBe(true);
      const reason = document.getElementById(button.getAttribute('aria-describedby') ?? '');
      expect(reason?.textContent).toBe(why);
      expect(reason?.className).toBe('reset__reason');
    },
  );

  it('drops the reason once Reset is enabled', async () => {
    const { user } = renderReset();
    await fillBoth(user);
    expect(resetButton().disabled).toBe(false);
    expect(resetButton().hasAttribute('aria-describedby')).toBe(false);
    expect(screen.queryByText(/^resetUnavailable/)).toBeNull();
  });

  it('announces the must-match hint through a live region that is there before it appears', async () => {
    const { user } = renderReset();
    await user.type(await newPasswordField(), STRONG);
    await user.tab();
    const confirm = confirmField();
    const region = confirm.closest('.field')?.querySelector('[aria-live="polite"]');
    expect(region?.textContent).toBe('');
    await user.type(confirm, 'Abc');
    expect(region?.textContent).toBe('passwordsMustMatch');
  });

  it('shows the valid/invalid icon inside the field, not beside it', async () => {
    const { user } = renderReset();
    await fillBoth(user, STRONG, 'x');
    const newField = await newPasswordField();
    expect(newField.parentElement?.querySelector('.reset__state--valid')).not.toBeNull();
    expect(confirmField().parentElement?.querySelector('.reset__state--invalid')).not.toBeNull();
    expect(newField.parentElement?.className).toContain('password-input--adorned');
  });
});
