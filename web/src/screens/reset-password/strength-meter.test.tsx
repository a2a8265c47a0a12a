import '../../test-support/dom.ts';
import { TEXT_KEYS, type TextResource } from '@keycard/contract';
import { act, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderWithTexts, TEST_TEXTS } from '../../test-support/texts.tsx';
import { strengthEstimator } from './strength-estimator.ts';
import { StrengthMeter } from './strength-meter.tsx';
import { advice, meter, renderMeter } from './strength-test-kit.tsx';

beforeAll(() => {
  // Built once before the tests (seconds on a busy machine), as the reset kit does.
  strengthEstimator();
}, 60_000);

const ADVICE_KEY = /^passwordStrength(Warning|Suggestion)/;

/** A resource whose advice reads like neither its key nor the estimator's own words. */
const RESOURCE_ADVICE = Object.fromEntries(
  TEXT_KEYS.map((key) => [
    key,
    ADVICE_KEY.test(key) ? `from the resource: ${key.replace('passwordStrength', '')}` : TEST_TEXTS[key],
  ]),
) as TextResource;

const warningText = () => advice().querySelector('.strength__warning')?.textContent ?? null;
const suggestionTexts = () =>
  [...advice().querySelectorAll('.strength__suggestions li')].map((item) => item.textContent);

describe('the strength estimate as the person types (issue: strength that knows the context)', () => {
  it('keeps the place of a pending estimate (its level line and meter) and shows and says nothing', () => {
    renderWithTexts(<StrengthMeter id="strength" feedback={null} pending />, '/', { language: 'en' });
    // Hidden by the stylesheet (visibility: hidden), so no one sees or hears the stand-in level.
    expect([...meter().classList]).toEqual(['strength', 'strength--pending']);
    expect(meter().querySelector('.strength__level')).not.toBeNull();
    expect(meter().querySelector('meter')).not.toBeNull();
  });

  it('shows nothing for an empty field', async () => {
    renderMeter();
    // The estimator's import settles (a state update, so inside act) and still nothing shows.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(meter().textContent).toBe('');
  });

  it('rates a guessable password weak and says why', async () => {
    const { user, field } = renderMeter();
    await user.type(field, 'Welcome@2026');
    await waitFor(() => expect(meter().dataset.score).toBe('2'));
    // The level line alone: the advice has a place of its own, after Reset (reset-form.tsx).
    expect(meter().textContent).toBe('passwordStrengthLabel passwordStrengthFair');
    expect(warningText()).toBe('passwordStrengthWarningSimilarToCommon');
    expect(meter().querySelector('meter')?.value).toBe(2);
  });

  it('words its warning and suggestions from the text resource only (SPEC §1)', async () => {
    const { user, field } = renderMeter(null, RESOURCE_ADVICE);
    await user.type(field, 'Welcome@2026');
    await waitFor(() => expect(meter().dataset.score).toBe('2'));
    expect(warningText()).toBe('from the resource: WarningSimilarToCommon');
    expect(suggestionTexts().length).toBeGreaterThan(0);
    for (const suggestion of suggestionTexts()) expect(suggestion).toMatch(/^from the resource: Suggestion/);
  });

  it('rates a password built from the person’s name very weak, naming personal data', async () => {
    const { user, field } = renderMeter('Ada Lovelace');
    await user.type(field, 'AdaLovelace2026!');
    await waitFor(() => expect(Number(meter().dataset.score)).toBeLessThanOrEqual(1));
    expect(warningText()).toBe('passwordStrengthWarningUserInputs');
  });

  it('rates the product’s name as no strength either', async () => {
    const { user, field } = renderMeter();
    await user.type(field, 'MyKeycard#2026');
    await waitFor(() => expect(Number(meter().dataset.score)).toBeLessThan(3));
  });

  it('rates a long unusual passphrase very strong, without advice', async () => {
    const { user, field } = renderMeter('Ada Lovelace');
    await user.type(field, 'Violet-Harbour-Lantern-93');
    await waitFor(() => expect(meter().dataset.score).toBe('4'));
    expect(meter().textContent).toBe('passwordStrengthLabel passwordStrengthVeryStrong');
    expect(advice().textContent).toBe('');
  });
});
