import '../test-support/dom.ts';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useLocation } from '../routing/navigation.tsx';
import { renderWithTexts } from '../test-support/texts.tsx';
import type { RedirectTarget } from './delayed-redirect.ts';
import { DoneState, secondsLeft } from './done-state.tsx';

function LocationProbe() {
  const { pathname } = useLocation();
  return <div data-testid="location">{pathname}</div>;
}

function renderDone(target: RedirectTarget | null, delayMs: number) {
  const assign = vi.fn<(url: string | URL) => void>();
  vi.stubGlobal('location', { ...window.location, assign });
  const view = renderWithTexts(
    <>
      <button type="button">had focus</button>
      <DoneState heading="Password changed" caption="caption" target={target} delayMs={delayMs} />
      <LocationProbe />
    </>,
    '/done',
  );
  return { ...view, assign };
}

const polite = (container: HTMLElement) => container.querySelector('[aria-live="polite"]');

async function advance(ms: number) {
  await act(() => {
    vi.advanceTimersByTime(ms);
  });
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('secondsLeft', () => {
  it('rounds the time left up to whole seconds, never below 0', () => {
    expect(secondsLeft(12_500, 0)).toBe(13);
    expect(secondsLeft(12_500, 500)).toBe(12);
    expect(secondsLeft(12_500, 12_499)).toBe(1);
    expect(secondsLeft(12_500, 12_500)).toBe(0);
    expect(secondsLeft(3000, 4000)).toBe(0);
  });
});

describe('DoneState', () => {
  it('focuses its heading and shows the caption', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    renderDone({ kind: 'leave', url: 'https://planner.example/' }, 12_500);
    const heading = screen.getByRole('heading', { level: 1, name: 'Password changed' });
    expect(document.activeElement).toBe(heading);
    expect(screen.getByText('caption')).toBeTruthy();
  });

  it('counts the 12500 ms down in whole seconds and announces the delay once, politely', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { container, assign } = renderDone({ kind: 'leave', url: 'https://planner.example/' }, 12_500);
    const timer = screen.getByRole('timer');
    // A timer is not read out at each change; the live region says it once.
    expect(timer.getAttribute('aria-live')).toBeNull();
    expect(timer.textContent).toBe('redirectCountdown 13');
    expect(polite(container)?.textContent).toBe('redirectAnnouncement 13');
    await advance(499);
    expect(timer.textContent).toBe('redirectCountdown 13');
    await advance(1);
    expect(timer.textContent).toBe('redirectCountdown 12');
    await advance(1000);
    expect(timer.textContent).toBe('redirectCountdown 11');
    // Each second lands on its own, down to the last.
    for (let seconds = 10; seconds >= 2; seconds--) {
      await advance(1000);
      expect(timer.textContent).toBe(`redirectCountdown ${seconds}`);
    }
    await advance(999);
    expect(timer.textContent).toBe('redirectCountdown 2');
    expect(assign).not.toHaveBeenCalled();
    expect(polite(container)?.textContent).toBe('redirectAnnouncement 13');
    await advance(1);
    expect(timer.textContent).toBe('redirectCountdown 1');
    expect(assign).not.toHaveBeenCalled();
    await advance(1000);
    expect(timer.textContent).toBe('redirectCountdown 0');
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/');
  });

  it('goes to a route now on the button, replacing the page, and not again after the delay', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign } = renderDone({ kind: 'route', to: '/error' }, 12_500);
    fireEvent.click(screen.getByRole('button', { name: 'continueNow' }));
    expect(screen.getByTestId('location').textContent).toBe('/error');
    await advance(12_500);
    expect(screen.getByTestId('location').textContent).toBe('/error');
    expect(assign).not.toHaveBeenCalled();
  });

  it('loads an http(s) target now on the button, once', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { assign } = renderDone({ kind: 'leave', url: 'https://planner.example/' }, 3000);
    const button = screen.getByRole('button', { name: 'continueNow' });
    fireEvent.click(button);
    fireEvent.click(button);
    await advance(3000);
    expect(assign).toHaveBeenCalledExactlyOnceWith('https://planner.example/');
  });

  it('shows neither button nor countdown without a target', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { container, assign } = renderDone(null, 3000);
    expect(screen.queryByRole('button', { name: 'continueNow' })).toBeNull();
    expect(screen.queryByRole('timer')).toBeNull();
    expect(polite(container)).toBeNull();
    await advance(30_000);
    expect(assign).not.toHaveBeenCalled();
  });
});
