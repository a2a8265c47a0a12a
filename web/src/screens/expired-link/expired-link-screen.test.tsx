import '../../test-support/dom.ts';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { ExpiredLinkScreen } from './expired-link-screen.tsx';

const hrefOf = (name: string) => screen.getByRole('link', { name }).getAttribute('href');

describe('ExpiredLinkScreen (SPEC §2 /expiredLink)', () => {
  it('shows the expired heading and links to forgot password and the RedirectUrl', () => {
    const { container } = renderWithTexts(
      <ExpiredLinkScreen />,
      '/ExpiredLink?RedirectUrl=https://planner.example/',
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('passwordLinkExpired');
    expect(screen.getByText('passwordLinkExpiredText')).toBeTruthy();
    expect(hrefOf('forgotPasswordLabel')).toBe('/forgotPassword?RedirectUrl=https://planner.example/');
    expect(hrefOf('goToLoginLabel')).toBe(
      `${window.location.origin}/api/DefaultRedirect?RedirectUrl=https%3A%2F%2Fplanner.example%2F`,
    );
    expect(container.querySelector('[data-page-kind="expiredLink"]')).toBeTruthy();
  });

  it('sends the login link to / without a RedirectUrl', () => {
    renderWithTexts(<ExpiredLinkScreen />, '/ExpiredLink');
    expect(hrefOf('goToLoginLabel')).toBe('/');
  });

  it('does not link to a RedirectUrl that is no http(s) URL', () => {
    renderWithTexts(<ExpiredLinkScreen />, '/ExpiredLink?RedirectUrl=javascript:alert(1)');
    expect(hrefOf('goToLoginLabel')).toBe('/');
  });
});
