import '../test-support/dom.ts';
import { render, screen } from '@testing-library/react';
import { type ComponentType, lazy } from 'react';
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from 'vitest';
import { type AppLocation, NavigationProvider } from '../routing/navigation.tsx';
import { RoutePageContext } from '../shell/route-page.ts';
import { memoryHistory } from '../test-support/memory-history.ts';
import { renderWithTexts, TEST_TEXTS } from '../test-support/texts.tsx';
import { TextContext } from '../text/text-context.ts';
import { RoutedScreen } from './routed-screen.tsx';

/** A screen whose code the server no longer has: a rolling deploy answered 404 for its file. */
const MissingChunk = lazy<ComponentType>(() =>
  Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/x.js')),
);

function Throws(): never {
  throw new Error('render failed');
}

function Healthy() {
  return <h1>healthy</h1>;
}

const at = (pathname: string, search = ''): AppLocation => ({ pathname, search });

let consoleError: MockInstance<typeof console.error>;
let scrollTo: MockInstance<typeof window.scrollTo>;

beforeEach(() => {
  // React reports every error a boundary catches on the console: expected here.
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
});
afterEach(() => {
  consoleError.mockRestore();
  scrollTo.mockRestore();
});

describe('RoutedScreen: a screen that fails', () => {
  it('shows the error texts in the page frame, read out, when its code fails to load', async () => {
    renderWithTexts(
      <RoutedScreen location={at('/', '?ReturnUrl=%2Fresume')}>
        <MissingChunk />
      </RoutedScreen>,
      '/?ReturnUrl=%2Fresume',
    );
    const title = await screen.findByRole('heading', { level: 1, name: 'errorTitle' });
    expect(screen.getByRole('main').textContent).toContain('somethingWentWrong');
    expect(screen.getByRole('banner').textContent).toBe('Keycard');
    expect(screen.getByRole('contentinfo')).toBeTruthy();
    expect(document.activeElement).toBe(title);
    expect(title.getAttribute('tabindex')).toBe('-1');
    expect(document.title).toBe('errorTitle – Keycard');
  });

  it('offers the sign-in the person was in as a full page load, which fetches the current files', async () => {
    renderWithTexts(
      <RoutedScreen location={at('/forgotPassword', '?ReturnUrl=%2Fresume')}>
        <MissingChunk />
      </RoutedScreen>,
      '/forgotPassword?ReturnUrl=%2Fresume',
    );
    const way = await screen.findByRole('link', { name: 'goToLoginLabel' });
    expect(way.getAttribute('href')).toBe('/?ReturnUrl=%2Fresume');
    // A plain link: the browser loads the page, no move inside the SPA intercepts it. (The test stops
    // the load once the click has passed the application: jsdom has none.)
    let intercepted: boolean | null = null;
    const record = (event: Event) => {
      intercepted = event.defaultPrevented;
      event.preventDefault();
    };
    window.addEventListener('click', record);
    way.click();
    window.removeEventListener('click', record);
    expect(intercepted).toBe(false);
  });

  it('offers the start page without a ReturnUrl', async () => {
    renderWithTexts(
      <RoutedScreen location={at('/unlock/abc')}>
        <Throws />
      </RoutedScreen>,
      '/unlock/abc',
    );
    const way = await screen.findByRole('link', { name: 'goToStartPage' });
    expect(way.getAttribute('href')).toBe('/');
  });

  it("offers the same page again first, as a full page load, which keeps a link's code", async () => {
    renderWithTexts(
      <RoutedScreen location={at('/unlock/abc', '?RedirectUrl=https%3A%2F%2Fapp.example%2F')}>
        <MissingChunk />
      </RoutedScreen>,
      '/unlock/abc?RedirectUrl=https%3A%2F%2Fapp.example%2F',
    );
    const again = await screen.findByRole('link', { name: 'tryAgainLabel' });
    expect(again.getAttribute('href')).toBe('/unlock/abc?RedirectUrl=https%3A%2F%2Fapp.example%2F');
    const links = screen.getAllByRole('link').map((link) => link.textContent);
    expect(links.indexOf('tryAgainLabel')).toBeLessThan(links.indexOf('goToStartPage'));
  });

  it('shows the error texts for a render error too', () => {
    renderWithTexts(
      <RoutedScreen location={at('/locked')}>
        <Throws />
      </RoutedScreen>,
      '/locked',
    );
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('errorTitle');
    expect(screen.getByRole('main').textContent).toContain('somethingWentWrong');
  });

  it('shows the message alone when the page frame fails as well', () => {
    // Without a route page the frame has no page kind and throws.
    renderWithTexts(
      <RoutePageContext value={null}>
        <RoutedScreen location={at('/locked')}>
          <Throws />
        </RoutedScreen>
      </RoutePageContext>,
      '/locked',
    );
    const title = screen.getByRole('heading', { level: 1, name: 'errorTitle' });
    expect(screen.getByRole('main').textContent).toContain('somethingWentWrong');
    expect(screen.getByRole('link', { name: 'goToStartPage' }).getAttribute('href')).toBe('/');
    expect(document.activeElement).toBe(title);
  });

  it('tries again at the next location, so moving on leaves the failure behind', () => {
    const history = memoryHistory('/unlock/a');
    // The location is the route view's: each rerender passes the one it would show.
    const page = (location: AppLocation, Shown: ComponentType) => (
      <TextContext value={{ texts: TEST_TEXTS, language: 'en' }}>
        <NavigationProvider history={history}>
          <RoutePageContext value={{ pageKind: 'unlock', titleKey: 'unlockInProgress' }}>
            <RoutedScreen location={location}>
              <Shown />
            </RoutedScreen>
          </RoutePageContext>
        </NavigationProvider>
      </TextContext>
    );
    const first = at('/unlock/a');
    const view = render(page(first, Throws));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('errorTitle');
    view.rerender(page(first, Healthy));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('errorTitle');
    view.rerender(page(at('/unlock/b'), Healthy));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('healthy');
  });
});
