import '../test-support/dom.ts';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browserHistory, NavigationProvider, useLocation } from '../routing/navigation.tsx';
import { AppLink } from './app-link.tsx';

function LocationProbe() {
  const { pathname, search } = useLocation();
  return <p data-testid="location">{`${pathname}${search}`}</p>;
}

function renderLink(to: string) {
  render(
    <NavigationProvider history={browserHistory}>
      <AppLink to={to}>go</AppLink>
      <LocationProbe />
    </NavigationProvider>,
  );
  return screen.getByRole('link', { name: 'go' });
}

/** Whether the SPA took the last click over; the click is then stopped, as jsdom cannot load pages. */
let takenOver: boolean | null = null;
const record = (event: Event) => {
  takenOver = event.defaultPrevented;
  event.preventDefault();
};

beforeEach(() => {
  window.history.replaceState(null, '', '/locked?ReturnUrl=%2Fr');
  takenOver = null;
  window.addEventListener('click', record);
});
afterEach(() => {
  window.removeEventListener('click', record);
});

describe('AppLink', () => {
  it('moves inside the SPA on a plain click, keeping a real href', async () => {
    const link = renderLink('/forgotPassword?ReturnUrl=%2Fr');
    expect(link.getAttribute('href')).toBe('/forgotPassword?ReturnUrl=%2Fr');
    const entries = window.history.length;
    await act(async () => fireEvent.click(link));
    expect(takenOver).toBe(true);
    expect(screen.getByTestId('location').textContent).toBe('/forgotPassword?ReturnUrl=%2Fr');
    expect(window.history.length).toBe(entries + 1);
  });

  it.each([
    ['Ctrl', { ctrlKey: true }],
    ['Meta', { metaKey: true }],
    ['Shift', { shiftKey: true }],
    ['Alt', { altKey: true }],
    ['the middle button', { button: 1 }],
  ])('leaves a click with %s to the browser (new tab or window)', async (_, init) => {
    const link = renderLink('/forgotPassword');
    await act(async () => fireEvent.click(link, init));
    expect(takenOver).toBe(false);
    expect(screen.getByTestId('location').textContent).toBe('/locked?ReturnUrl=%2Fr');
  });

  it('adds no history entry for a link to the page already shown', async () => {
    const link = renderLink('/locked?ReturnUrl=%2Fr');
    const entries = window.history.length;
    await act(async () => fireEvent.click(link));
    expect(takenOver).toBe(true);
    expect(window.history.length).toBe(entries);
  });

  it('leaves an http(s) target to the browser: a full page load', async () => {
    const link = renderLink('https://planner.example/home');
    expect(link.getAttribute('href')).toBe('https://planner.example/home');
    await act(async () => fireEvent.click(link));
    expect(takenOver).toBe(false);
    expect(screen.getByTestId('location').textContent).toBe('/locked?ReturnUrl=%2Fr');
  });
});
