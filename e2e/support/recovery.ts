import { getCalls, type Language, REDIRECT_DELAY_MS } from '@keycard/contract';
import { expect, type Locator, type Page } from '@playwright/test';
import { DEMO_PATH } from '../pages/demo-page.ts';

/**
 * Where recovery flows lead without a valid RedirectUrl: DEFAULT_REDIRECT_URL, which in development
 * with the demo is `$PUBLIC_URL/demo` (DESIGN §5); the service runs with this process's environment.
 */
export function defaultRedirectUrl(baseURL: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.DEFAULT_REDIRECT_URL ?? `${baseURL}${DEMO_PATH}`;
}

/**
 * The href of a page's link to the application a RedirectUrl names: through the service, which sends
 * the browser there only when the allow-list has its origin (DESIGN §2), since the SPA cannot know it.
 */
export function throughService(baseURL: string, redirectUrl: string): string {
  return `${baseURL}${getCalls.defaultRedirect.path}?${new URLSearchParams({ RedirectUrl: redirectUrl })}`;
}

/**
 * The language of mail that has neither an account language (accounts the admin CLI creates have
 * none) nor a request behind it, such as mail of admin commands: the default of
 * server/src/recovery/mail-language.ts.
 */
export const MAIL_DEFAULT_LANGUAGE: Language = 'en';

/**
 * What is left of the redirect delay (SPEC §9) when the test checks that the page stayed: covers the
 * time between the caption appearing and the test seeing it, after which the page's clock is held.
 */
const STAY_MARGIN_MS = 2_000;

/** The page's own clock (Playwright's, which the fixture installs): what its timers count in. */
function pageTicks(page: Page): Promise<number> {
  return page.evaluate(() => performance.now());
}

/**
 * The page's wall clock. The fixture fixes it (setFixedTime) for the theme, so pausing at it moves
 * nothing: the page's timers stop where they are.
 */
export function pageWallTime(page: Page): Promise<number> {
  return page.evaluate(() => Date.now());
}

/**
 * Waits until `caption`, the state that starts a delayed redirect, is visible, and holds the page's
 * clock there: the redirect's timer then moves only when the test moves it, however long the checks
 * of the done state take on a busy machine. Answers the page's time then, for followDelayedRedirect.
 */
export async function seenAt(caption: Locator): Promise<number> {
  await expect(caption).toBeVisible();
  const page = caption.page();
  await page.clock.pauseAt(await pageWallTime(page));
  return pageTicks(page);
}

/**
 * Runs `check` with the held page clock running, for what needs the page's timers (axe-core waits on
 * them), and holds it again afterwards; followDelayedRedirect counts the time it ran.
 */
export async function withClockRunning<T>(page: Page, check: () => Promise<T>): Promise<T> {
  await page.clock.resume();
  try {
    return await check();
  } finally {
    await page.clock.pauseAt(await pageWallTime(page));
  }
}

/**
 * SPEC §4: after a successful action the page stays for REDIRECT_DELAY_MS, then goes on. Instead of
 * waiting 12.5 s of real time, moves the page's clock, held since seenAt: to just before the delay
 * ends, counted from `shownAt` in the page's time, where `stays` must still hold on the same URL;
 * then past it, where the browser must reach `arrives`. The clock runs in real time again from there.
 */
export async function followDelayedRedirect(
  page: Page,
  shownAt: number,
  stays: () => Promise<void>,
  arrives: (url: URL) => boolean,
): Promise<void> {
  const before = page.url();
  const wallTime = await pageWallTime(page);
  const jump = REDIRECT_DELAY_MS - STAY_MARGIN_MS - ((await pageTicks(page)) - shownAt);
  expect(jump, 'time left of the redirect delay to check that the page stays').toBeGreaterThan(0);
  await page.clock.fastForward(jump);
  await stays();
  expect(page.url(), 'the page stays until the redirect delay is over').toBe(before);
  await page.clock.resume();
  await page.clock.fastForward(STAY_MARGIN_MS);
  await page.waitForURL(arrives);
  // The fixture's fixed wall clock again (a new document replays the pause, which unfixes it).
  await page.clock.setFixedTime(wallTime);
}
