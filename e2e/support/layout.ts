import type { Page } from '@playwright/test';
import { contrastRatio } from './contrast.ts';

/** Where the card sits in the window, and whether anything scrolls sideways. */
export interface Placement {
  readonly windowWidth: number;
  readonly scrollWidth: number;
  readonly left: number;
  readonly right: number;
}

export async function cardPlacement(page: Page): Promise<Placement> {
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
export async function cardToArtContrast(page: Page): Promise<number> {
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

/** The width in a JPEG's start-of-frame segment (SOF0–SOF3), walking the segments from the start. */
export function jpegWidth(jpeg: Buffer): number | undefined {
  let at = 2;
  while (at + 9 < jpeg.length && jpeg[at] === 0xff) {
    const marker = jpeg[at + 1] ?? 0;
    if (marker >= 0xc0 && marker <= 0xc3) return jpeg.readUInt16BE(at + 7);
    at += 2 + jpeg.readUInt16BE(at + 2);
  }
  return undefined;
}
