import {
  BACKGROUND_NAMES,
  BACKGROUND_WIDTH,
  backgroundPath,
  LANGUAGES,
  type PageKind,
  SIGN_IN_ROTATION,
  THEMES,
  type Theme,
} from '@keycard/contract';
import { SCREEN_ROUTES } from '../pages/screens.ts';
import { keepScreenshot } from '../support/artifacts.ts';
import { expect, LOCALE, test } from '../support/fixtures.ts';

/** SPEC §7 Images: the sign-in start page shows one of three rotating images, every other its own. */
function allowedBackgrounds(theme: Theme, pageKind: PageKind): string[] {
  const names = pageKind === 'unknownUser' ? SIGN_IN_ROTATION : [pageKind];
  return names.map((name) => backgroundPath(theme, name));
}

test.describe('every route of SPEC §2', () => {
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      test.describe(`${language} (${LOCALE[language]}), ${theme} theme`, () => {
        test.use({ locale: LOCALE[language], theme });

        for (const route of SCREEN_ROUTES) {
          test(`${route.name} opens with its page kind, background, theme, language and heading`, async ({
            page,
            request,
            texts,
          }, testInfo) => {
            const screen = route.screen(page);
            await screen.open();

            await expect(screen.frame).toHaveAttribute('data-page-kind', screen.pageKind);
            await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
            await expect(page.locator('html')).toHaveAttribute('lang', language);
            await expect(screen.heading).toHaveText(screen.expectedHeading(texts));

            const background = await screen.background();
            expect(allowedBackgrounds(theme, screen.pageKind)).toContain(background);
            const image = await request.get(background);
            expect(image.status()).toBe(200);
            expect(image.headers()['content-type']).toBe('image/jpeg');
            // The browser really shows it: the image element loaded a 1920-wide picture.
            await expect(page.locator(`img[src="${background}"]`)).toHaveJSProperty(
              'naturalWidth',
              BACKGROUND_WIDTH,
            );

            await keepScreenshot(page, testInfo, `${route.name}-${theme}-${language}`);
          });
        }
      });
    }
  }

  test('every background image of both themes is a JPEG of 1920 px width and at most 150 KB', async ({
    request,
  }) => {
    for (const theme of THEMES) {
      for (const name of BACKGROUND_NAMES) {
        const response = await request.get(backgroundPath(theme, name));
        expect.soft(response.status(), `${theme}/${name}`).toBe(200);
        expect.soft(response.headers()['content-type'], `${theme}/${name}`).toBe('image/jpeg');
        // JPEG files start with the SOI marker FF D8.
        const body = await response.body();
        expect.soft([...body.subarray(0, 2)], `${theme}/${name}`).toEqual([0xff, 0xd8]);
        expect.soft(jpegWidth(body), `${theme}/${name} width`).toBe(1920);
        expect.soft(body.length, `${theme}/${name} bytes`).toBeLessThanOrEqual(150_000);
      }
    }
  });
});

/** The width in a JPEG's start-of-frame segment (SOF0–SOF3), walking the segments from the start. */
function jpegWidth(jpeg: Buffer): number | undefined {
  let at = 2;
  while (at + 9 < jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xc3) return jpeg.readUInt16BE(at + 7);
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return undefined;
}
