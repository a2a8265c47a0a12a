import { backgroundPath, getCalls, SIGN_IN_ROTATION } from '@keycard/contract';
import { SignInPage } from '../pages/sign-in-page.ts';
import { expect, test } from '../support/fixtures.ts';

const RESOURCE = getCalls.getResource.path;
const TOKEN = getCalls.getCsrfToken.path;

/** What a page may load before it can render: its own document and code, and the browser's icon. */
const LOADING_TYPES = new Set(['document', 'script', 'stylesheet', 'font', 'manifest']);

interface Sent {
  readonly path: string;
  readonly type: string;
  readonly afterRelease: boolean;
}

test.describe('start-up (SPEC §1: nothing renders until the texts and the token arrived)', () => {
  // Holding either call must block rendering; the other one is still sent, so they run in parallel.
  const orders = [
    [RESOURCE, TOKEN],
    [TOKEN, RESOURCE],
  ] as const;

  for (const [held, other] of orders) {
    test(`while ${held} is pending: ${other} completes, nothing renders and nothing else is requested`, async ({
      page,
      texts,
      theme,
    }) => {
      // index.html's own preload of the sign-in page's first background (web/public/background-
      // preload.js) starts that download early; it renders nothing.
      const preloaded = backgroundPath(theme, SIGN_IN_ROTATION[0]);
      let release: () => void = () => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let afterRelease = false;
      const sent: Sent[] = [];
      page.on('request', (request) => {
        sent.push({ path: new URL(request.url()).pathname, type: request.resourceType(), afterRelease });
      });
      await page.route(
        (url) => url.pathname === held,
        async (route) => {
          await released;
          await route.continue();
        },
      );
      const otherFinished = page.waitForEvent('requestfinished', (r) => new URL(r.url()).pathname === other);
      const heldSent = page.waitForRequest((r) => new URL(r.url()).pathname === held);

      const signIn = new SignInPage(page);
      await page.goto(signIn.path);
      await Promise.all([otherFinished, heldSent]);
      // A negative check needs a window in which a wrong render or call would have happened.
      await page.waitForTimeout(750);

      await expect(page.locator('#root')).toBeEmpty();
      await expect(page.locator('h1')).toHaveCount(0);
      const early = sent.filter(
        (request) =>
          request.path !== RESOURCE &&
          request.path !== TOKEN &&
          !LOADING_TYPES.has(request.type) &&
          request.path !== '/favicon.svg' &&
          !(request.type === 'image' && request.path === preloaded),
      );
      expect(early).toEqual([]);

      afterRelease = true;
      release();
      await expect(signIn.heading).toHaveText(signIn.expectedHeading(texts));
      // Once both arrived the page goes on to load its background: the log above would have seen it.
      await expect
        .poll(() =>
          sent.some(
            (request) =>
              request.afterRelease && request.type === 'image' && request.path.startsWith('/images/'),
          ),
        )
        .toBe(true);
    });
  }

  test('both start-up calls are made once, the texts in the browser language', async ({ page }) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === RESOURCE || url.pathname === TOKEN) calls.push(`${url.pathname}${url.search}`);
    });
    const signIn = new SignInPage(page);
    await signIn.open();
    await expect(signIn.heading).toBeVisible();
    expect(calls.toSorted()).toEqual([TOKEN, `${RESOURCE}?requestedLanguageCode=en-US`].toSorted());
  });
});
