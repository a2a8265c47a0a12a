import '../test-support/dom.ts';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { browserHistory, NavigationProvider } from '../routing/navigation.tsx';
import { renderWithTexts, TEST_TEXTS } from '../test-support/texts.tsx';
import { TextContext } from '../text/text-context.ts';
import { RouteView } from './route-view.tsx';

const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

let scrollTo: MockInstance<typeof window.scrollTo>;

// Calls stay unanswered, so each screen stays in the state it opens in.
beforeEach(() => {
  vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
  scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  scrollTo.mockRestore();
});

describe('RouteView: focus and scroll after a move inside the SPA', () => {
  it("leaves the first page's focus to its screen: the sign-in page's e-mail field", async () => {
    renderWithTexts(<RouteView />, '/?ReturnUrl=%2Fresume');
    const email = await screen.findByRole('textbox', { name: 'emailLabel' });
    expect(document.activeElement).toBe(email);
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('takes no focus on the first page where its screen places none', async () => {
    renderWithTexts(<RouteView />, '/locked?ReturnUrl=%2Fr');
    const locked = await heading('lockedAfterTooManyFailedAttempts');
    expect(document.activeElement).toBe(document.body);
    expect(locked.hasAttribute('tabindex')).toBe(false);
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it("moves focus to the new page's heading and shows the page from its top after a link", async () => {
    const user = userEvent.setup();
    renderWithTexts(<RouteView />, '/locked?ReturnUrl=%2Fr');
    await user.click(await screen.findByRole('link', { name: 'forgotPasswordLabel' }));

    const forgot = await heading('forgotPassword');
    await waitFor(() => expect(document.activeElement).toBe(forgot));
    // Focusable by script only, never in the tab order.
    expect(forgot.getAttribute('tabindex')).toBe('-1');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    // The tab title still follows the heading.
    expect(document.title).toBe('forgotPassword – Keycard');
  });

  it('keeps the focus a screen places itself on arrival: the e-mail field of the sign-in page', async () => {
    const user = userEvent.setup();
    renderWithTexts(<RouteView />, '/forgotPassword?ReturnUrl=%2Fr');
    await user.click(await screen.findByRole('link', { name: 'rememberedPasswordLabel' }));

    // The page left has an e-mail field of the same name and stays on show while the sign-in
    // screen's code loads (unless an earlier test loaded it): the field is looked up once it arrived.
    await heading('loginWelcome Keycard');
    const email = await screen.findByRole('textbox', { name: 'emailLabel' });
    await waitFor(() => expect(document.activeElement).toBe(email));
    // Given time to run, the arrival still leaves it there.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(document.activeElement).toBe(email);
    expect(scrollTo).not.toHaveBeenCalled();
  });

  it('moves focus to the heading after Back and Forward too', async () => {
    window.history.replaceState(null, '', '/locked?ReturnUrl=%2Fr');
    const user = userEvent.setup();
    render(
      <TextContext value={{ texts: TEST_TEXTS, language: 'en' }}>
        <NavigationProvider history={browserHistory}>
          <RouteView />
        </NavigationProvider>
      </TextContext>,
    );
    await user.click(await screen.findByRole('link', { name: 'forgotPasswordLabel' }));
    await heading('forgotPassword');

    // The heading that had focus leaves with its page; Back arrives at the locked page again.
    act(() => window.history.back());
    const locked = await heading('lockedAfterTooManyFailedAttempts');
    await waitFor(() => expect(document.activeElement).toBe(locked));
    expect(locked.getAttribute('tabindex')).toBe('-1');

    // Forward as well; it also leaves the history with no entry ahead, as the test found it.
    act(() => window.history.forward());
    const forgot = await heading('forgotPassword');
    await waitFor(() => expect(document.activeElement).toBe(forgot));
  });
});
