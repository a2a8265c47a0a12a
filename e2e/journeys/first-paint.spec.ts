import { fillText, PRODUCT_NAME } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { ExpiredLinkPage } from '../pages/expired-link-page.ts';
import { LockedPage } from '../pages/locked-page.ts';
import { SignInPage } from '../pages/sign-in-page.ts';
import { expect, test } from '../support/fixtures.ts';

/** theme.css: the page and bar colours of each theme, as the browser reports them. */
const DARK_PAGE = 'rgb(20, 23, 27)';
const LIGHT_PAGE = 'rgb(239, 233, 223)';
const DARK_BAR = '#111418';
const LIGHT_BAR = '#f8f4ee';

function htmlBackground(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
}

function themeColours(page: Page): Promise<(string | null)[][]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('meta[name="theme-color"]')].map((meta) => [
      meta.getAttribute('media'),
      meta.getAttribute('content'),
    ]),
  );
}

test.describe('first paint of the served index.html (issue 16, item 3)', () => {
  test('before any script runs it has a title, the theme-color of both schemes and a dark page, allowed by the CSP', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
    try {
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (message.text().includes('Content Security Policy')) refused.push(message.text());
      });
      const response = await page.goto('/?ReturnUrl=%2F');
      expect(response?.headers()['content-security-policy']).toMatch(/style-src 'self' 'sha256-/);
      await expect(page).toHaveTitle(PRODUCT_NAME);
      expect(await themeColours(page)).toEqual([
        ['(prefers-color-scheme: dark)', DARK_BAR],
        ['(prefers-color-scheme: light)', LIGHT_BAR],
      ]);
      // No script ran: no theme chosen and nothing rendered, yet the page is not white.
      expect(await page.locator('html').getAttribute('data-theme')).toBeNull();
      expect(await page.locator('#root').innerHTML()).toBe('');
      expect(await htmlBackground(page)).toBe(DARK_PAGE);
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  });

  for (const [theme, pageColour, barColour] of [
    ['dark', DARK_PAGE, DARK_BAR],
    ['light', LIGHT_PAGE, LIGHT_BAR],
  ] as const) {
    test.describe(`${theme} theme`, () => {
      test.use({ theme });

      test('once the app runs, the page and the browser bars take the theme of the local time', async ({
        page,
      }) => {
        await new SignInPage(page).open();
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        expect(await htmlBackground(page)).toBe(pageColour);
        expect((await themeColours(page)).map(([, content]) => content)).toEqual([barColour, barColour]);
      });
    });
  }

  test.describe('light theme', () => {
    test.use({ theme: 'light' });

    test('the theme is chosen before the body is parsed, so the first paint is already light', async ({
      page,
    }) => {
      // Runs before the document's own scripts: notes the theme at the moment <body> is inserted.
      await page.addInitScript(() => {
        const seen = window as unknown as { themeAtBody?: string | null };
        new MutationObserver((records, observer) => {
          for (const record of records) {
            for (const node of record.addedNodes) {
              if (node.nodeName !== 'BODY') continue;
              seen.themeAtBody = document.documentElement.getAttribute('data-theme');
              observer.disconnect();
            }
          }
        }).observe(document, { childList: true, subtree: true });
      });
      await new SignInPage(page).open();
      expect(
        await page.evaluate(() => (window as unknown as { themeAtBody?: string | null }).themeAtBody),
      ).toBe('light');
    });
  });

  test('names each screen in the tab title by its heading, then the product', async ({ page, texts }) => {
    const product = `${texts.productNamePart1}${texts.productNamePart2}`;
    const signIn = new SignInPage(page, '/?ReturnUrl=%2F');
    await signIn.open();
    await expect(signIn.heading).toHaveText(fillText(texts.loginWelcome, { product: PRODUCT_NAME }));
    await expect(page).toHaveTitle(`${fillText(texts.loginWelcome, { product: PRODUCT_NAME })} – ${product}`);

    const locked = new LockedPage(page);
    await locked.open();
    await expect(page).toHaveTitle(`${texts.lockedAfterTooManyFailedAttempts} – ${product}`);

    const expired = new ExpiredLinkPage(page);
    await expired.open();
    await expect(page).toHaveTitle(`${texts.passwordLinkExpired} – ${product}`);
  });
});
