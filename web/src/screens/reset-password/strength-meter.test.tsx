import '../../test-support/dom.ts';
import { act, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { strengthEstimatorFor } from './strength-estimator.ts';
import { StrengthMeter } from './strength-meter.tsx';
import { meter, renderMeter } from './strength-test-kit.tsx';

beforeAll(() => {
  // Built once per language before the tests (seconds on a busy machine), as the reset kit does.
  strengthEstimatorFor('en');
  strengthEstimatorFor('de');
}, 60_000);

describe('the strength estimate as the person types (issue: strength that knows the context)', () => {
  it('keeps the place of a pending estimate (its level line and meter) and shows and says nothing', () => {
    renderWithTexts(<StrengthMeter id="strength" feedback={null} pending />, '/', { language: 'en' });
    // Hidden by the stylesheet (visibility: hidden), so no one sees or hears the stand-in level.
    expect([...meter().classList]).toEqual(['strength', 'strength--pending']);
    expect(meter().querySelector('.strength__level')).not.toBeNull();
    expect(meter().querySelector('meter')).not.toBeNull();
  });

  it('shows nothing for an empty field', async () => {
    renderMeter('en');
    // The estimator's import settles (a state update, so inside act) and still nothing shows.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(meter().textContent).toBe('');
  });

  it('rates a guessable password weak and says why, in English', async () => {
    const { user, field } = renderMeter('en');
    await user.type(field, 'Welcome@2026');
    await waitFor(() => expect(meter().dataset.score).toBe('2'));
    expect(meter().textContent).toContain('passwordStrengthLabel passwordStrengthFair');
    expect(meter().textContent).toContain('This is similar to a commonly used password.');
    expect(meter().querySelector('meter')?.value).toBe(2);
  });

  it('gives the estimator’s advice in German on a German page', async () => {
    const { user, field } = renderMeter('de');
    await user.type(field, 'Welcome@2026');
    await waitFor(() =>
      expect(meter().textContent).toContain(
        'Dies weist Ähnlichkeit zu anderen oft verwendeten Passwörtern auf.',
      ),
    );
    expect(meter().textContent).not.toContain('commonly used');
  });

  it('rates a password built from the person’s name very weak, naming personal data', async () => {
    const { user, field } = renderMeter('en', 'Ada Lovelace');
    await user.type(field, 'AdaLovelace2026!');
    await waitFor(() => expect(Number(meter().dataset.score)).toBeLessThanOrEqual(1));
    expect(meter().textContent).toContain('There should not be any personal or page related data.');
  });

  it('rates the product’s name as no strength either', async () => {
    const { user, field } = renderMeter('en');
    await user.type(field, 'MyKeycard#2026');
    await waitFor(() => expect(Number(meter().dataset.score)).toBeLessThan(3));
  });

  it('rates a long unusual passphrase very strong, without advice', async () => {
    const { user, field } = renderMeter('en', 'Ada Lovelace');
    await user.type(field, 'Violet-Harbour-Lantern-93');
    await waitFor(() => expect(meter().dataset.score).toBe('4'));
    expect(meter().textContent).toBe('passwordStrengthLabel passwordStrengthVeryStrong');
  });
});
