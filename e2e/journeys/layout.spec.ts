import { THEMES } from '@keycard/contract';
import type { Page } from '@playwright/test';
import { SCREEN_ROUTES } from '../pages/screens.ts';
import { keepScreenshot } from '../support/artifacts.ts';
import { contrastRatio } from '../support/contrast.ts';
import { expect, test } from '../support/fixtures.ts';
import { answerMadeUpCodes } from '../support/made-up-codes.ts';

/** Widths from the smallest phone to a large desktop monitor (issue 16 item 9). */
const WIDTHS = [320, 375, 576, 768, 992, 1400, 1600, 1920, 2560] as const;
/** The two widths whose screenshots are kept: a phone and a desktop. */
const SHOTS = { phone: { width: 375, height: 812 }, desktop: { width: 1440, height: 900 } } as const;
/** How far the card's centre may sit from the middle of the window, in CSS pixels. */
const CENTRE_TOLERANCE_PX = 2;

interface Placement {
  readonly windowWidth: number;
  readonly scrollWidth: number;
  readonly left: number;
  readonly right: number;
}

async function cardPlacement(page: Page): Promise<Placement> {
  return page.locator('.card').evaluate((card) => {
    const rect = card.getBoundingClientRect();
    return {
      windowWidth: document.documentElement.clientWidth,
      scrollWidth: document.documentElement.scrollWidth,
      left: rect.left,
      right: rect.right,
    };
  });
}

/**
 * The contrast between the card's surface and the artwork right beside it: the median over pixels
 * of a band on both sides of the card, read from a screenshot of the window (decoded in a blank
 * page, outside the application's content security policy).
 */
async function cardToArtContrast(page: Page): Promise<number> {
  const box = await page.locator('.card').boundingBox();
  if (!box) throw new Error('no card');
  const surface = await page
    .locator('.card')
    .evaluate((card) => getComputedStyle(card).backgroundColor.match(/\d+/g)?.slice(0, 3).map(Number) ?? []);
  const png = (await page.screenshot({ animations: 'disabled' })).toString('base64');
  const probe = await page.context().newPage();
  try {
    const pixels = await probe.evaluate(
      async ({ data, card }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = new OffscreenCanvas(image.width, image.height);
        const context = canvas.getContext('2d');
        if (!context) throw new Error('no 2d context');
        context.drawImage(image, 0, 0);
        const scale = image.width / card.viewportWidth;
        const band = Math.round(48 * scale);
        const gap = Math.round(24 * scale);
        const top = Math.round((card.y + card.height * 0.25) * scale);
        const height = Math.round(card.height * 0.5 * scale);
        const sides = [
          context.getImageData(Math.round(card.x * scale) - gap - band, top, band, height),
          context.getImageData(Math.round((card.x + card.width) * scale) + gap, top, band, height),
        ];
        const rgb: number[][] = [];
        for (const side of sides) {
          for (let i = 0; i < side.data.length; i += 4 * 7) {
            rgb.push([side.data[i] ?? 0, side.data[i + 1] ?? 0, side.data[i + 2] ?? 0]);
          }
        }
        return rgb;
      },
      { data: png, card: { ...box, viewportWidth: page.viewportSize()?.width ?? 0 } },
    );
    const ratios = pixels.map((pixel) => contrastRatio(surface, pixel)).sort((a, b) => a - b);
    return ratios[Math.floor(ratios.length / 2)] ?? 0;
  } finally {
    await probe.close();
  }
}

test.describe('layout from 320 px to 2560 px, and screenshots of every screen', () => {
  for (const theme of THEMES) {
    test.describe(`${theme} theme`, () => {
      test.use({ theme, colorScheme: theme });

      for (const route of SCREEN_ROUTES) {
        test(`${route.name}: the card is centred at every width, phone and desktop kept`, async ({
          page,
          texts,
        }, testInfo) => {
          await answerMadeUpCodes(page);
          const screen = route.screen(page);
          await page.setViewportSize(SHOTS.desktop);
          await screen.open();
          await expect(screen.heading).toHaveText(screen.expectedHeading(texts));

          for (const width of WIDTHS) {
            await page.setViewportSize({ width, height: 900 });
            const card = await cardPlacement(page);
            // Nothing scrolls sideways, and the card keeps a margin on both sides, equal within 2 px.
            expect(card.scrollWidth, `${width} px`).toBeLessThanOrEqual(card.windowWidth);
            expect(card.left, `${width} px`).toBeGreaterThan(0);
            expect(card.right, `${width} px`).toBeLessThan(card.windowWidth);
            const centre = (card.left + card.right) / 2;
            expect(Math.abs(centre - card.windowWidth / 2), `${width} px`).toBeLessThanOrEqual(
              CENTRE_TOLERANCE_PX,
            );
          }

          for (const [name, size] of Object.entries(SHOTS)) {
            await page.setViewportSize(size);
            await keepScreenshot(page, testInfo, `layout-${route.name}-${theme}-${name}`);
          }
        });
      }
    });
  }

  test.describe('light theme', () => {
    test.use({ theme: 'light', colorScheme: 'light' });

    test('the card stands out from the artwork beside it', async ({ page, texts }) => {
      const sample = SCREEN_ROUTES.find((route) => route.name === 'forgot-password');
      if (!sample) throw new Error('forgot-password is one of the SPEC §2 routes');
      const screen = sample.screen(page);
      await page.setViewportSize(SHOTS.desktop);
      await screen.open();
      await expect(screen.heading).toHaveText(screen.expectedHeading(texts));
      await expect(page.locator(`img[src="${await screen.background()}"]`)).toHaveJSProperty(
        'complete',
        true,
      );
      // The white card against the veiled light artwork: at least 1.5:1 (1.27:1 without the veil).
      const ratio = await cardToArtContrast(page);
      test.info().annotations.push({ type: 'card to artwork', description: ratio.toFixed(2) });
      expect(ratio).toBeGreaterThanOrEqual(1.5);
    });
  });
});
