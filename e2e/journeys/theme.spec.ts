import { FallbackLandingPage } from '../pages/fallback-landing-page.ts';
import { expect, setLocalTime, TIME_ZONE, test } from '../support/fixtures.ts';

test.describe('theme by local time (SPEC §9)', () => {
  test('is dark at 17:59 and light from 18:00', async ({ page }) => {
    const landing = new FallbackLandingPage(page);

    await setLocalTime(page, 17, 59);
    await landing.open();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    expect(await landing.background()).toContain('/dark/');

    await setLocalTime(page, 18, 0);
    await landing.open();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    expect(await landing.background()).toContain('/light/');
  });

  test('follows the browser time zone, not UTC', async ({ browser, baseURL }) => {
    // 17:30 UTC is 18:30 in Berlin (winter) but still 17:30 in UTC.
    const instant = new Date('2026-01-15T17:30:00Z');
    const expectations = [
      [TIME_ZONE, 'light'],
      ['UTC', 'dark'],
    ] as const;
    for (const [timezoneId, theme] of expectations) {
      const context = await browser.newContext({ baseURL, timezoneId });
      try {
        const page = await context.newPage();
        await page.clock.setFixedTime(instant);
        await new FallbackLandingPage(page).open();
        await expect(page.locator('html'), timezoneId).toHaveAttribute('data-theme', theme);
      } finally {
        await context.close();
      }
    }
  });
});
