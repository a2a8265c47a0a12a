import { type Language, REDIRECT_DELAY_MS } from '@keycard/contract';
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
 * The language of mail that has neither an account language (accounts the admin CLI creates have
 * none) nor a request behind it, such as mail of admin commands: the default of
 * server/src/recovery/mail-language.ts.
 */
export const MAIL_DEFAULT_LANGUAGE: Language = 'en';

/**
 * What is left of the redirect delay (SPEC §9) when the test checks that the page stayed: covers the
 * time between the caption appearing and the test seeing it, and the check itself.
 */
const STAY_MARGIN_MS = 2_000;

/**
 * Waits until `caption`, the state that starts a delayed redirect, is visible; answers when (this
 * process's clock), for followDelayedRedirect.
 */
export async function seenAt(caption: Locator): Promise<number> {
  await expect(caption).toBeVisible();
  return Date.now();
}

/**
 * SPEC §4: after a successful action the page stays for REDIRECT_DELAY_MS, then goes on. Instead of
 * waiting 12.5 s of real time, moves the page's clock (the fixture's fake timers, which otherwise run
 * in real time): to just before the delay ends, counted from `shownAt`, where `stays` must still hold
 * on the same URL; then past it, where the browser must reach `arrives`.
 */
export async function followDelayedRedirect(
  page: Page,
  shownAt: number,
  stays: () => Promise<void>,
  arrives: (url: URL) => boolean,
): Promise<void> {
  const before = page.url();
  const jump = REDIRECT_DELAY_MS - STAY_MARGIN_MS - (Date.now() - shownAt);
  expect(jump, 'time left of the redirect delay to check that the page stays').toBeGreaterThan(0);
  await page.clock.fastForward(jump);
  await stays();
  expect(page.url(), 'the page stays until the redirect delay is over').toBe(before);
  await page.clock.fastForward(STAY_MARGIN_MS);
  await page.waitForURL(arrives);
}
