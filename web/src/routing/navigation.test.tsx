import '../test-support/dom.ts';
import { act, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browserHistory, NavigationProvider, useLocation, useNavigate } from './navigation.tsx';

/** Shows the location and offers the moves a screen makes. */
function Probe() {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  return (
    <>
      <p data-testid="location">{`${pathname}${search}`}</p>
      <button type="button" onClick={() => navigate('/locked?ReturnUrl=%2Fr')}>
        push
      </button>
      <button type="button" onClick={() => navigate('/Error', { replace: true })}>
        replace
      </button>
    </>
  );
}

const shown = () => screen.getByTestId('location').textContent;

function renderInBrowser() {
  return render(
    <NavigationProvider history={browserHistory}>
      <Probe />
    </NavigationProvider>,
  );
}

beforeEach(() => {
  window.history.replaceState(null, '', '/start?ReturnUrl=%2Fx');
});

describe('NavigationProvider with the browser history', () => {
  it("starts at the address bar's path and query", () => {
    renderInBrowser();
    expect(shown()).toBe('/start?ReturnUrl=%2Fx');
  });

  it('moves to a target with a new history entry, so Back returns', async () => {
    renderInBrowser();
    const entries = window.history.length;
    await act(async () => screen.getByRole('button', { name: 'push' }).click());
    expect(shown()).toBe('/locked?ReturnUrl=%2Fr');
    expect(`${window.location.pathname}${window.location.search}`).toBe('/locked?ReturnUrl=%2Fr');
    expect(window.history.length).toBe(entries + 1);

    window.history.back();
    await waitFor(() => expect(shown()).toBe('/start?ReturnUrl=%2Fx'));
  });

  it('replaces the current entry when asked, so Back skips the page left', async () => {
    renderInBrowser();
    const entries = window.history.length;
    await act(async () => screen.getByRole('button', { name: 'replace' }).click());
    expect(shown()).toBe('/Error');
    expect(window.location.pathname).toBe('/Error');
    expect(window.history.length).toBe(entries);
  });

  it('follows Back and Forward made outside the SPA', async () => {
    renderInBrowser();
    await act(async () => screen.getByRole('button', { name: 'push' }).click());
    window.history.back();
    await waitFor(() => expect(shown()).toBe('/start?ReturnUrl=%2Fx'));
    window.history.forward();
    await waitFor(() => expect(shown()).toBe('/locked?ReturnUrl=%2Fr'));
  });

  it('stops following the history once unmounted', () => {
    const unsubscribe = vi.fn();
    const history = { ...browserHistory, listen: vi.fn(() => unsubscribe) };
    const view = render(
      <NavigationProvider history={history}>
        <Probe />
      </NavigationProvider>,
    );
    expect(history.listen).toHaveBeenCalledTimes(1);
    view.unmount();
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });
});
