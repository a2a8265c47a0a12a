import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { backgroundPath } from '@keycard/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { matchRoute } from '../src/app/match-route.ts';
import { themeAt } from '../src/shell/theme.ts';
import { backgroundNames } from '../src/shell/use-background.ts';

/** web/public/background-preload.js, which index.html loads before the app. */
const SCRIPT = readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), '../public/background-preload.js'),
  'utf8',
);

/** What the script preloads when the page opens at `url` at local time `time`. */
function preloadedAt(url: string, time: Date): HTMLLinkElement | undefined {
  for (const link of document.head.querySelectorAll('link[rel="preload"]')) link.remove();
  window.history.replaceState(null, '', url);
  vi.setSystemTime(time);
  new Function(SCRIPT)();
  return document.head.querySelector<HTMLLinkElement>('link[rel="preload"]') ?? undefined;
}

/** The first background the app itself shows there and then, when the page is the sign-in page. */
function appFirstBackground(url: string, time: Date): string | undefined {
  const { pathname, search } = new URL(url, 'http://localhost');
  if (matchRoute(pathname, search).screen !== 'signIn') return undefined;
  const [first] = backgroundNames('unknownUser');
  return first && backgroundPath(themeAt(time), first);
}

const URLS = [
  '/?ReturnUrl=%2Foidc%2Fauth%3Fclient_id%3Dplanner',
  '/?returnUrl=x',
  '/?ReturnUrl=a&product=planner',
  '/',
  '/?RedirectUrl=x',
  '/forgotPassword?ReturnUrl=x',
  '/resetPassword/1/abc',
];
/** Local times around the theme switch at 18:00 (and after midnight, which is dark again). */
const TIMES = ['00:30', '12:00', '17:59', '18:00', '23:59'];

function localTime(hoursMinutes: string): Date {
  const [hours = 0, minutes = 0] = hoursMinutes.split(':').map(Number);
  return new Date(2026, 10, 25, hours, minutes);
}

describe('background-preload.js', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it.each(URLS.flatMap((url) => TIMES.map((time) => [url, time] as const)))(
    'at %s at %s preloads exactly the image the app shows first, or nothing',
    (url, time) => {
      const link = preloadedAt(url, localTime(time));
      expect(link?.getAttribute('href')).toBe(appFirstBackground(url, localTime(time)));
    },
  );

  it('asks for it as an image with high priority, so the <img> reuses it', () => {
    const link = preloadedAt('/?ReturnUrl=x', localTime('12:00'));
    expect(link?.as).toBe('image');
    expect(link?.getAttribute('fetchpriority')).toBe('high');
    expect(link?.getAttribute('href')).toBe('/images/background/dark/1920/unknownUser1.jpg');
  });

  it.each(URLS.flatMap((url) => TIMES.map((time) => [url, time] as const)))(
    'at %s at %s sets the theme the app chooses on <html> at once',
    (url, time) => {
      delete document.documentElement.dataset.theme;
      preloadedAt(url, localTime(time));
      expect(document.documentElement.dataset.theme).toBe(themeAt(localTime(time)));
    },
  );
});
