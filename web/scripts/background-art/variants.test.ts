// @vitest-environment node
// sharp needs Node's Buffer and native addon; the web project's jsdom environment adds nothing here.
import { BACKGROUND_WIDTH } from '@keycard/contract';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { BACKGROUND_HEIGHT, renderBackground } from './render.ts';
import { type BackgroundVariant, PHONE_WIDTH, renderVariants, variantPath } from './variants.ts';

/** Mean of the colour channels, a cheap fingerprint of which part of the picture an image shows. */
async function meanColour(image: Buffer): Promise<number[]> {
  const { channels } = await sharp(image).stats();
  return channels.slice(0, 3).map((channel) => channel.mean);
}

describe('background variants', () => {
  let jpeg: Buffer;
  let variants: BackgroundVariant[];
  beforeAll(async () => {
    ({ jpeg } = await renderBackground('unknownUser1', 'dark'));
    variants = await renderVariants(jpeg);
  }, 60_000);

  it('makes AVIF and WebP at 1920 and a phone cut in AVIF, WebP and JPEG, each smaller than the JPEG', async () => {
    const forms = await Promise.all(
      variants.map(async ({ width, extension, data }) => {
        const metadata = await sharp(data).metadata();
        expect(data.byteLength).toBeLessThan(jpeg.byteLength);
        return `${width} ${extension}: ${metadata.format} ${metadata.width}×${metadata.height}`;
      }),
    );
    expect(forms).toEqual([
      `${BACKGROUND_WIDTH} avif: heif ${BACKGROUND_WIDTH}×${BACKGROUND_HEIGHT}`,
      `${BACKGROUND_WIDTH} webp: webp ${BACKGROUND_WIDTH}×${BACKGROUND_HEIGHT}`,
      `${PHONE_WIDTH} avif: heif ${PHONE_WIDTH}×${BACKGROUND_HEIGHT}`,
      `${PHONE_WIDTH} webp: webp ${PHONE_WIDTH}×${BACKGROUND_HEIGHT}`,
      `${PHONE_WIDTH} jpg: jpeg ${PHONE_WIDTH}×${BACKGROUND_HEIGHT}`,
    ]);
  });

  it('cuts the phone form from the middle of the picture, as object-fit: cover shows it upright', async () => {
    const phone = variants.find((variant) => variant.width === PHONE_WIDTH && variant.extension === 'jpg');
    const left = Math.round((BACKGROUND_WIDTH - PHONE_WIDTH) / 2);
    const middle = await sharp(jpeg)
      .extract({ left, top: 0, width: PHONE_WIDTH, height: BACKGROUND_HEIGHT })
      .toBuffer();
    const edge = await sharp(jpeg)
      .extract({ left: 0, top: 0, width: PHONE_WIDTH, height: BACKGROUND_HEIGHT })
      .toBuffer();
    const [phoneMean, middleMean, edgeMean] = await Promise.all(
      [phone?.data ?? Buffer.alloc(0), middle, edge].map(meanColour),
    );
    const distance = (a: number[] = [], b: number[] = []) =>
      Math.hypot(...a.map((value, index) => value - (b[index] ?? 0)));
    expect(distance(phoneMean, middleMean)).toBeLessThan(1.5);
    expect(distance(phoneMean, edgeMean)).toBeGreaterThan(distance(phoneMean, middleMean) * 3);
  });

  it('names each form by theme, width and format beside the SPEC path', () => {
    expect(variantPath('light', 'unlock', PHONE_WIDTH, 'avif')).toBe(
      `/images/background/light/${PHONE_WIDTH}/unlock.avif`,
    );
  });
});
