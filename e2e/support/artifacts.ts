import path from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { ARTIFACTS_DIR } from './paths.ts';

/** Where the per-route screenshots go; kept after the run (git-ignored). */
export const SCREENSHOT_DIR = path.join(ARTIFACTS_DIR, 'screenshots');

/**
 * Saves a screenshot of the whole page as e2e/artifacts/screenshots/<name>.png and attaches it to
 * the test's report. Animations are frozen so the picture does not depend on timing.
 */
export async function keepScreenshot(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await testInfo.attach(name, { path: file, contentType: 'image/png' });
}
