import '../../test-support/dom.ts';
import { LOGOUT_REDIRECT_DELAY_MS } from '@keycard/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RouteView } from '../../app/route-view.tsx';
import { type Navigate, useLocation, useNavigate } from '../../routing/navigation.tsx';
import { recordedHistory } from '../../test-support/memory-history.ts';
import { settled } from '../../test-support/settled.ts';
import { renderWithTexts } from '../../test-support/texts.tsx';
import { LogoutScreen } from './logout-screen.tsx';

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Stubs the network edge (the client reads globalThis.fetch late) and records request bodies. */
function stubLogout(
  answer: (body: { logoutId: string; confirmed?: boolean }) => Response | Promise<Response>,
) {
  const bodies: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      expect(new URL(String(input), 'http://spa.test').pathname).toBe('/api/Logout');
      const body = JSON.parse(String(init.body));
      bodies.push(body);
      return answer(body);
    }),
  );
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, assign });
  return { bodies, assign };
}

function LocationProbe() {
  const { pathname } = useLocation();
  return <div data-testid="location">{pathname}</div>;
}

function renderLogout(url: string) {
  return renderWithTexts(
    <>
      <LogoutScreen />
      <LocationProbe />
    </>,
    url,
  );
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('LogoutScreen (SPEC §2 /logout, §4)', () => {
  it('signs out the logoutId once, greets by name and redirects after exactly 3000 ms', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { bodies, assign } = stubLogout(() =>
      json({ username: 'Ada Lovelace', postLogoutRedirectUri: 'https://planner.example/bye' }),
    );
    const { container } = renderLogout('/logout?logoutId=L-42');
    await settled(() => expect(screen.getByText('logoffGreeting Ada Lovelace')).toBeTruthy());
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('logoff');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    expect(container.querySelector('[data-page-kind]')?.getAttribute('data-page-kind')).toBe('userLogoff');
    // The way on, with the 3 seconds of the delay counted down and said once, politely.
    expect(screen.getByRole('button', { name: 'continueNow' })).toBeTruthy();
    expect(screen.getByRole('timer').textContent).toBe('redirectCountdown 3');
    await settled(() =>
      expect(container.querySelector('[aria-live="polite"]')?.textContent).toBe('redirectAnnouncement 3'),
    );
    expect(screen.getByRole('status').textContent).toBe('');
    expect(bodies).toEqual([{ logoutId: 'L-42' }]);

    await act(() => {
      vi.advanceTimersByTime(LOGOUT_REDIRECT_DELAY_MS - 1);
    });
    expect(assign).not.toHaveBeenCalled();
    await act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/bye');
    expect(LOGOUT_REDIRECT_DELAY_MS).toBe(3000);
  });

  it('stays on the goodbye without a post-logout URI', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign } = stubLogout(() => json({ username: 'Ada', postLogoutRedirectUri: null }));
    renderLogout('/logout?logoutId=L-1');
    await settled(() => expect(screen.getByText('logoffGreeting Ada')).toBeTruthy());
    await act(() => {
      vi.advanceTimersByTime(LOGOUT_REDIRECT_DELAY_MS * 10);
    });
    expect(assign).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'logoff' }));
    // Nowhere to go: no button and no countdown.
    expect(screen.queryByRole('button', { name: 'continueNow' })).toBeNull();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says signed out without a name when the sign-out names no one', async () => {
    stubLogout(() => json({ username: '', postLogoutRedirectUri: null }));
    renderLogout('/logout?logoutId=L-0');
    await settled(() => expect(screen.getByText('logoffDone')).toBeTruthy());
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('logoff');
    expect(screen.queryByText(/logoffGreeting/)).toBeNull();
  });

  it('goes to the post-logout URI at once on "continue now", and only once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign } = stubLogout(() =>
      json({ username: 'Ada', postLogoutRedirectUri: 'https://planner.example/bye' }),
    );
    renderLogout('/logout?logoutId=L-3');
    await settled(() => expect(screen.getByRole('button', { name: 'continueNow' })).toBeTruthy());
    const button = screen.getByRole('button', { name: 'continueNow' });
    fireEvent.click(button);
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/bye');
    fireEvent.click(button);
    await act(() => {
      vi.advanceTimersByTime(LOGOUT_REDIRECT_DELAY_MS);
    });
    expect(assign).toHaveBeenCalledOnce();
  });

  it('does not follow a post-logout URI that is no http(s) URL', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign } = stubLogout(() =>
      json({ username: 'Ada', postLogoutRedirectUri: 'javascript:alert(1)' }),
    );
    renderLogout('/logout?logoutId=L-1');
    await settled(() => expect(screen.getByText('logoffGreeting Ada')).toBeTruthy());
    await act(() => {
      vi.advanceTimersByTime(LOGOUT_REDIRECT_DELAY_MS);
    });
    expect(assign).not.toHaveBeenCalled();
  });

  it('goes to /Error when the sign-out fails', async () => {
    stubLogout(() => json({ code: 'not_found', message: 'unknown' }, 404));
    renderLogout('/logout?logoutId=L-unknown');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/Error'));
    expect(screen.queryByText(/logoffGreeting/)).toBeNull();
  });

  it('under StrictMode, which mounts it twice, sends one sign-out and goes to /Error once on its failure', async () => {
    const { bodies } = stubLogout(() => json({ code: 'not_found', message: 'unknown' }, 404));
    const { history, moves } = recordedHistory('/logout?logoutId=L-unknown');
    // Through the route table, as the app shows it: /Error is another screen, which the page gives way to.
    renderWithTexts(
      <StrictMode>
        <RouteView />
        <LocationProbe />
      </StrictMode>,
      '/logout?logoutId=L-unknown',
      {},
      history,
    );
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/Error'));
    // Time for any other handler of the same answer to act.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(bodies).toEqual([{ logoutId: 'L-unknown' }]);
    expect(moves).toEqual(['replace /Error']);
  });

  it("shows only its own logoutId's answer when the page moved on to another sign-out meanwhile", async () => {
    const answers = new Map<string, (response: Response) => void>();
    stubLogout(({ logoutId }) => new Promise<Response>((resolve) => answers.set(logoutId, resolve)));
    let navigate: Navigate = () => undefined;
    function Mover() {
      navigate = useNavigate();
      return null;
    }
    renderWithTexts(
      <>
        <RouteView />
        <LocationProbe />
        <Mover />
      </>,
      '/logout?logoutId=L-a',
    );
    await waitFor(() => expect([...answers.keys()]).toEqual(['L-a']));
    // The same screen, at another logoutId: it stays mounted and starts that sign-out.
    act(() => navigate('/logout?logoutId=L-b'));
    await waitFor(() => expect([...answers.keys()]).toEqual(['L-a', 'L-b']));

    answers.get('L-a')?.(json({ username: 'Ada', postLogoutRedirectUri: null }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.queryByText(/logoffGreeting/)).toBeNull();
    answers.get('L-b')?.(json({ username: 'Bea', postLogoutRedirectUri: null }));
    expect(await screen.findByText('logoffGreeting Bea')).toBeTruthy();
    expect(screen.queryByText('logoffGreeting Ada')).toBeNull();
  });

  it('goes to /Error without calling the service when there is no logoutId', async () => {
    const { bodies } = stubLogout(() => json({ username: 'x', postLogoutRedirectUri: null }));
    renderLogout('/logout');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/Error'));
    expect(bodies).toEqual([]);
  });
});

/** The service's answers to a sign-out no valid ID token vouched for: the question, then the goodbye. */
function askFirst(body: { confirmed?: boolean }): Response {
  if (body.confirmed !== true) return json({ code: 'confirmation_required', message: 'confirm' }, 409);
  return json({ username: 'Ada Lovelace', postLogoutRedirectUri: 'https://planner.example/bye' });
}

describe('LogoutScreen asking first (RP-Initiated Logout 1.0 §2)', () => {
  it('asks "Sign out of Keycard?" with the heading focused, and signs out only on the confirmation', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { bodies, assign } = stubLogout(askFirst);
    renderLogout('/logout?logoutId=L-7');
    await settled(() =>
      expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('logoutConfirmTitle'),
    );
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    expect(screen.getByText('logoutConfirmText')).toBeTruthy();
    expect(screen.queryByText(/logoffGreeting/)).toBeNull();
    expect(bodies).toEqual([{ logoutId: 'L-7' }]);

    const signOut = screen.getByRole('button', { name: 'logoutConfirmLabel' }) as HTMLButtonElement;
    signOut.focus();
    fireEvent.click(signOut);
    // Sending: both answers say so, and the pressed one keeps focus (aria-disabled, not disabled).
    for (const name of ['logoutConfirmLabel', 'logoutDeclineLabel']) {
      expect(screen.getByRole('button', { name }).getAttribute('aria-disabled')).toBe('true');
    }
    expect(signOut.disabled).toBe(false);
    expect(document.activeElement).toBe(signOut);
    fireEvent.click(signOut);
    fireEvent.click(screen.getByRole('button', { name: 'logoutDeclineLabel' }));
    await settled(() => expect(screen.getByText('logoffGreeting Ada Lovelace')).toBeTruthy());
    expect(bodies).toEqual([{ logoutId: 'L-7' }, { logoutId: 'L-7', confirmed: true }]);
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'logoff' }));
    expect(screen.getByRole('timer').textContent).toBe('redirectCountdown 3');

    // The delay of SPEC §9 holds after the question too.
    await act(() => {
      vi.advanceTimersByTime(LOGOUT_REDIRECT_DELAY_MS - 1);
    });
    expect(assign).not.toHaveBeenCalled();
    await act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/bye');
  });

  it('keeps the session when the person declines from the keyboard, and goes nowhere', async () => {
    const { bodies, assign } = stubLogout(askFirst);
    renderLogout('/logout?logoutId=L-8');
    await waitFor(() => expect(screen.getByRole('button', { name: 'logoutDeclineLabel' })).toBeTruthy());
    const user = userEvent.setup();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'logoutConfirmLabel' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'logoutDeclineLabel' }));
    await user.keyboard('{Enter}');

    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('logoutDeclined');
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 }));
    expect(screen.queryByRole('button', { name: 'logoutConfirmLabel' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'logoutDeclineLabel' })).toBeNull();
    expect(bodies).toEqual([{ logoutId: 'L-8' }]);
    expect(assign).not.toHaveBeenCalled();
    expect(screen.getByTestId('location').textContent).toBe('/logout');
  });

  it('goes to /Error when the confirmed sign-out fails', async () => {
    stubLogout((body) =>
      body.confirmed === true
        ? json({ code: 'not_found', message: 'expired' }, 404)
        : json({ code: 'confirmation_required', message: 'confirm' }, 409),
    );
    renderLogout('/logout?logoutId=L-9');
    fireEvent.click(await screen.findByRole('button', { name: 'logoutConfirmLabel' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/Error'));
  });
});
