import '../test-support/dom.ts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithTexts, TEST_TEXTS } from '../test-support/texts.tsx';
import { RouteView } from './route-view.tsx';

/** Every route of SPEC §2 with the heading and page kind its screen shows. */
const ROUTES = [
  ['/?ReturnUrl=%2Fresume%3Fproduct%3DPlanner', 'loginWelcome Planner', 'unknownUser'],
  ['/', 'fallbackWelcome', 'fallbackLandingPage'],
  ['/logout?logoutId=1', 'logoff', 'userLogoff'],
  ['/forgotPassword', 'forgotPassword', 'forgotPassword'],
  ['/resetPassword/1/abc', 'resetPassword', 'resetPassword'],
  ['/ResetPassword/2/abc', 'expiredPasswordReset', 'resetPassword'],
  ['/expiredLink', 'passwordLinkExpired', 'expiredLink'],
  ['/error', 'errorTitle', 'fallbackLandingPage'],
  ['/locked', 'lockedAfterTooManyFailedAttempts', 'userLockedAfterTooManyFailedAttempts'],
  ['/unlock/abc', 'unlockInProgress', 'unlock'],
  ['/verifyNewEmail/abc', 'verifyingEmail', 'emailVerification'],
  ['/somewhere/else', 'fallbackWelcome', 'fallbackLandingPage'],
] as const;

describe('RouteView', () => {
  // Calls stay unanswered, so each screen shows the state it opens in, however long the check takes.
  beforeEach(() => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each(ROUTES)('%s shows "%s" with page kind %s', async (url, heading, pageKind) => {
    const { container } = renderWithTexts(<RouteView />, url);
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe(heading);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    expect(container.querySelector('[data-page-kind]')?.getAttribute('data-page-kind')).toBe(pageKind);
  });

  it('puts the forgot-password link in the footer of the sign-in page, keeping the query', async () => {
    renderWithTexts(<RouteView />, '/?ReturnUrl=%2Fresume');
    const footer = await screen.findByRole('contentinfo');
    expect(footer.querySelector('a')?.getAttribute('href')).toBe('/forgotPassword?ReturnUrl=%2Fresume');
  });

  it("shows the error texts in the page's frame when a screen fails to render, not an empty page", async () => {
    // React reports the error the boundary caught on the console: expected here.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // A text resource without a text the screen fills in: the fallback landing page throws.
      const texts = { ...TEST_TEXTS, incorrectAccessSuggestion1: undefined as unknown as string };
      renderWithTexts(<RouteView />, '/somewhere/else', { texts });
      const title = await screen.findByRole('heading', { level: 1 });
      expect(title.textContent).toBe('errorTitle');
      expect(screen.getByRole('main').textContent).toContain('somethingWentWrong');
      expect(screen.getByRole('link', { name: 'goToStartPage' }).getAttribute('href')).toBe('/');
      expect(document.activeElement).toBe(title);
    } finally {
      consoleError.mockRestore();
    }
  });
});
