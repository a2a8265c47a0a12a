import { backgroundPath, getCalls, SIGN_IN_ROTATION } from '@keycard/contract';
import type { Page } from '@playwright/test';
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

/** Paths whose answer the page's code has read, kept by the script `recordBodiesRead` installs. */
declare global {
  interface Window {
    bodiesRead?: string[];
  }
}

/** Has the page note the path of every answer whose body its own code finished reading. */
async function recordBodiesRead(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const read: string[] = [];
    window.bodiesRead = read;
    for (const method of ['json', 'text'] as const) {
      const original = Response.prototype[method];
      Object.defineProperty(Response.prototype, method, {
        configurable: true,
        writable: true,
        value: async function (this: Response) {
          const body = await original.call(this);
          read.push(new URL(this.url).pathname);
          return body;
        },
      });
    }
  });
}

/**
 * Resolves once the page's code has read the answer to `path` and the page has painted two frames
 * since: by then anything that waited for that answer alone has rendered or asked for more.
 */
async function pageDoneWith(page: Page, path: string): Promise<void> {
  await page.waitForFunction((read) => window.bodiesRead?.includes(read) ?? false, path);
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
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
      await recordBodiesRead(page);
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
      // A negative check needs the moment a wrong render or call would have happened by: the page
      // has read the other answer and painted since.
      await pageDoneWith(page, other);

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
