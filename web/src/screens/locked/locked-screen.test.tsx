import '../../test-support/dom.ts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { LockedScreen } from './locked-screen.tsx';

const hrefOf = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

describe('LockedScreen (SPEC §2 /locked)', () => {
  it('shows the locked heading and text with the userLockedAfterTooManyFailedAttempts page kind', () => {
    const { container } = renderWithTexts(<LockedScreen />, '/locked');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('lockedAfterTooManyFailedAttempts');
    expect(screen.getByText('lockedAfterTooManyFailedAttemptsText')).toBeTruthy();
    expect(container.querySelector('[data-page-kind="userLockedAfterTooManyFailedAttempts"]')).toBeTruthy();
  });

  it('links to forgot password and back to sign-in, keeping the query string', () => {
    renderWithTexts(<LockedScreen />, '/locked?ReturnUrl=%2Fresume%3Fproduct%3DPlanner');
    expect(hrefOf('forgotPasswordLabel')).toBe('/forgotPassword?ReturnUrl=%2Fresume%3Fproduct%3DPlanner');
    expect(hrefOf('goToLoginLabel')).toBe('/?ReturnUrl=%2Fresume%3Fproduct%3DPlanner');
  });

  it('links to the RedirectUrl by way of the service, which checks it, when there is no ReturnUrl', () => {
    renderWithTexts(<LockedScreen />, '/locked?RedirectUrl=https%3A%2F%2Fplanner.example%2F');
    expect(hrefOf('goToLoginLabel')).toBe(
      `${window.location.origin}/api/DefaultRedirect?RedirectUrl=https%3A%2F%2Fplanner.example%2F`,
    );
  });
});
