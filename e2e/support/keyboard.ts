import type { Locator, Page } from '@playwright/test';

/** Enough Tab presses to walk the focus order of any page of the journeys once. */
const MAX_TABS = 40;

/** Presses Tab until `target` has focus; fails if the focus order never reaches it. */
export async function tabUntilFocused(page: Page, target: Locator, maxPresses = MAX_TABS): Promise<void> {
  for (let presses = 0; presses < maxPresses; presses += 1) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab never reached ${target}`);
}
