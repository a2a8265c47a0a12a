import '../test-support/dom.ts';
import { act, render } from '@testing-library/react';
import { StrictMode, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  type AppLocation,
  type Navigate,
  NavigationProvider,
  useLocation,
  useNavigate,
} from '../routing/navigation.tsx';
import { memoryHistory, recordedHistory } from '../test-support/memory-history.ts';
import { type RedirectTarget, useDelayedRedirect } from './delayed-redirect.ts';
import { type LiveCheck, useLive } from './use-live.ts';

/** What the page under test hands out: its live check, its location, its moves, a way off the page. */
interface Handles {
  live: LiveCheck;
  location: AppLocation;
  navigate: Navigate;
  hide: () => void;
}

/** A page that stays mounted whatever the location, until `hide`; it shows where it is. */
function Page({ handles }: { readonly handles: Partial<Handles> }) {
  handles.live = useLive();
  handles.navigate = useNavigate();
  handles.location = useLocation();
  return <p>{`${handles.location.pathname}${handles.location.search}`}</p>;
}

function Shell({ handles }: { readonly handles: Partial<Handles> }) {
  const [shown, setShown] = useState(true);
  handles.hide = () => setShown(false);
  return shown ? <Page handles={handles} /> : null;
}

function renderPage(url: string, strict = false) {
  const handles: Partial<Handles> = {};
  const tree = (
    <NavigationProvider history={memoryHistory(url)}>
      <Shell handles={handles} />
    </NavigationProvider>
  );
  const view = render(strict ? <StrictMode>{tree}</StrictMode> : tree);
  return { view, handles: handles as Handles };
}

describe('useLive', () => {
  it('is live once the page is mounted at the location the browser is at', () => {
    const { handles } = renderPage('/forgotPassword?ReturnUrl=%2Fx');
    expect(handles.live()).toBe(true);
    expect(handles.live(handles.location)).toBe(true);
  });

  it('is live after StrictMode mounted the page a second time', () => {
    expect(renderPage('/forgotPassword?ReturnUrl=%2Fx', true).handles.live()).toBe(true);
  });

  it('is no longer live the moment the browser moved, before the next page rendered', () => {
    const { handles, view } = renderPage('/?ReturnUrl=%2Fx');
    act(() => {
      handles.navigate('/forgotPassword?ReturnUrl=%2Fx');
      // The move is a transition: the page left is still mounted and on show here.
      expect(view.container.textContent).toBe('/?ReturnUrl=%2Fx');
      expect(handles.live()).toBe(false);
    });
  });

  it('tells a query change apart: the same path with another ReturnUrl is another page', () => {
    const { handles } = renderPage('/?ReturnUrl=%2Fa');
    act(() => {
      handles.navigate('/?ReturnUrl=%2Fb');
      expect(handles.live()).toBe(false);
    });
  });

  it('is live again once the page, still mounted, shows where the browser went; not for what started before', () => {
    const { handles, view } = renderPage('/?ReturnUrl=%2Fa');
    const { live } = handles;
    const atA = handles.location;
    act(() => handles.navigate('/?ReturnUrl=%2Fb'));
    expect(view.container.textContent).toBe('/?ReturnUrl=%2Fb');
    // One check for the page's life: effects that use it do not run again on a move.
    expect(handles.live).toBe(live);
    expect(live()).toBe(true);
    expect(live(handles.location)).toBe(true);
    // A call started at A answers after the same screen came to show B: it must not act there.
    expect(live(atA)).toBe(false);
  });

  it('is no longer live once unmounted, in the same commit', () => {
    const { handles } = renderPage('/?ReturnUrl=%2Fx');
    const { live, location } = handles;
    act(() => handles.hide());
    expect(live()).toBe(false);
    expect(live(location)).toBe(false);
  });
});

describe('useDelayedRedirect after the person went elsewhere', () => {
  // One target for the page's life, as a done state holds it.
  const LOCKED: RedirectTarget = { kind: 'route', to: '/locked' };
  let goNow: () => void = () => undefined;

  function Redirecting({ handles }: { readonly handles: Partial<Handles> }) {
    handles.navigate = useNavigate();
    goNow = useDelayedRedirect(LOCKED, 5000);
    const { pathname } = useLocation();
    return <p>{pathname}</p>;
  }

  /**
   * The page at a reset link, its redirect counting down on a faked clock; `moves` lists every entry
   * the history was given, `push` or `replace`.
   */
  function renderRedirecting() {
    const handles: Partial<Handles> = {};
    const { history, moves } = recordedHistory('/resetPassword/1/c0de');
    const view = render(
      <NavigationProvider history={history}>
        <Redirecting handles={handles} />
      </NavigationProvider>,
    );
    return { navigate: (to: string) => handles.navigate?.(to), history, moves, view };
  }

  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('follows its target once, in place of the page, when the delay is over', () => {
    const { moves, view } = renderRedirecting();
    act(() => vi.advanceTimersByTime(4999));
    expect(moves).toEqual([]);
    act(() => vi.advanceTimersByTime(1));
    expect(moves).toEqual(['replace /locked']);
    expect(view.container.textContent).toBe('/locked');
    // The way on, pressed after the redirect went, goes nowhere a second time.
    act(() => goNow());
    expect(moves).toEqual(['replace /locked']);
  });

  it('follows its target when the delay ends at another location the same page came to show', () => {
    const { navigate, moves, view } = renderRedirecting();
    act(() => navigate('/resetPassword/1/c0de?ReturnUrl=%2Fx'));
    expect(view.container.textContent).toBe('/resetPassword/1/c0de');
    act(() => vi.advanceTimersByTime(5000));
    expect(moves).toEqual(['push /resetPassword/1/c0de?ReturnUrl=%2Fx', 'replace /locked']);
  });

  it('follows nothing once the page is gone before the delay is over', () => {
    const { moves, view } = renderRedirecting();
    view.unmount();
    act(() => vi.advanceTimersByTime(5000));
    expect(moves).toEqual([]);
  });

  it('does not follow its target when the browser moved before the next page rendered', () => {
    const { navigate, history, view } = renderRedirecting();
    act(() => {
      navigate('/forgotPassword');
      // The delay ends while the move is still a pending transition.
      vi.advanceTimersByTime(5000);
    });
    expect(history.location().pathname).toBe('/forgotPassword');
    expect(view.container.textContent).toBe('/forgotPassword');
  });

  it('leaves the way on to the person who came back before the page was gone', () => {
    const { navigate, history, view } = renderRedirecting();
    act(() => {
      navigate('/forgotPassword');
      vi.advanceTimersByTime(5000);
      // Back, before the page they went to was on show: this page is theirs again.
      navigate('/resetPassword/1/c0de');
    });
    expect(view.container.textContent).toBe('/resetPassword/1/c0de');
    act(() => goNow());
    expect(history.location().pathname).toBe('/locked');
    expect(view.container.textContent).toBe('/locked');
  });
});
