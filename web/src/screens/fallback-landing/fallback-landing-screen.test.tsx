import '../../test-support/dom.ts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { FallbackLandingScreen } from './fallback-landing-screen.tsx';

describe('FallbackLandingScreen (SPEC §2)', () => {
  it('welcomes, explains the incorrect access and lists three suggestions, the first with the host', () => {
    const { container } = renderWithTexts(<FallbackLandingScreen />);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('fallbackWelcome');
    expect(screen.getByText('incorrectAccess')).toBeTruthy();
    const items = within(screen.getByRole('main'))
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(items).toEqual([
      `incorrectAccessSuggestion1 ${window.location.host}`,
      'incorrectAccessSuggestion2',
      'incorrectAccessSuggestion3',
    ]);
    expect(container.querySelector('[data-page-kind]')?.getAttribute('data-page-kind')).toBe(
      'fallbackLandingPage',
    );
  });
});
