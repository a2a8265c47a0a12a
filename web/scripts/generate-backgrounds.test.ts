// @vitest-environment node
// sharp needs Node's Buffer and native addon; the web project's jsdom environment adds nothing here.
import { BACKGROUND_WIDTH } from '@keycard/contract';
import sharp, { type Stats } from 'sharp';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_HEIGHT, MAX_BACKGROUND_BYTES, renderBackground } from './background-art/render.ts';

describe('background generator', () => {
  it.each([
    ['dark', 'unknownUser1'],
    ['light', 'userLockedAfterTooManyFailedAttempts'],
  ] as const)(
    'renders %s/%s as a 1920-wide JPEG within 150 KB',
    async (theme, name) => {
      const { jpeg } = await renderBackground(name, theme);
      const metadata = await sharp(jpeg).metadata();
      expect(metadata.format).toBe('jpeg');
      expect(metadata.width).toBe(BACKGROUND_WIDTH);
      expect(metadata.height).toBe(BACKGROUND_HEIGHT);
      expect(jpeg.byteLength).toBeLessThanOrEqual(MAX_BACKGROUND_BYTES);
    },
    30_000,
  );

  it('renders the same bytes for the same name, so up-to-date files can be skipped', async () => {
    const first = await renderBackground('resetPassword', 'dark');
    const second = await renderBackground('resetPassword', 'dark');
    expect(Buffer.compare(first.jpeg, second.jpeg)).toBe(0);
  }, 30_000);

  it('gives the two themes of a page kind different light', async () => {
    const [dark, light] = await Promise.all([
      renderBackground('forgotPassword', 'dark'),
      renderBackground('forgotPassword', 'light'),
    ]);
    const [darkStats, lightStats] = await Promise.all([sharp(dark.jpeg).stats(), sharp(light.jpeg).stats()]);
    const mean = (stats: Stats): number =>
      stats.channels.slice(0, 3).reduce((sum, channel) => sum + channel.mean, 0) / 3;
    expect(mean(darkStats)).toBeLessThan(70);
    expect(mean(lightStats)).toBeGreaterThan(180);
  }, 30_000);
});
