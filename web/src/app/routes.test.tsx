import '../test-support/dom.ts';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithTexts } from '../test-support/texts.tsx';
import { findRoute } from './match-route.ts';
import { RouteView } from './route-view.tsx';

/** One location per route, each opening its screen in the state it starts in. */
const LOCATIONS = [
  ['/', '?ReturnUrl=%2Fresume%3Fproduct%3DPlanner'],
  ['/logout', '?logoutId=1'],
  ['/forgotPassword', ''],
  ['/resetPassword/1/abc', ''],
  ['/expiredLink', ''],
  ['/error', ''],
  ['/locked', ''],
  ['/unlock/abc', ''],
  ['/verifyNewEmail/abc', ''],
  ['/somewhere/else', ''],
] as const;

describe('the route table', () => {
  // Calls stay unanswered, so each screen shows the state it opens in.
  beforeEach(() => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it.each(LOCATIONS)("names the heading %s%s opens with by the route's title key", async (path, search) => {
    const { titleKey } = findRoute(path, search).page;
    renderWithTexts(<RouteView />, `${path}${search}`);
    // The test texts are their keys, followed by the filled placeholder where a text has one.
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toMatch(
      new RegExp(`^${titleKey}( |$)`),
    );
  });
});
