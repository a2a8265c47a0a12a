import type { SeededRandom } from './seeded-random.ts';

/** Artwork is drawn in full-HD coordinates whatever size it is rasterised at. */
export const VIEW_WIDTH = 1920;
export const VIEW_HEIGHT = 1080;

/**
 * Blurs near the canvas edge would fade towards transparency (nothing is drawn outside the canvas),
 * leaving a light seam along the border; so the picture is drawn with this margin and cropped.
 */
export const MARGIN = 160;

export const fixed = (value: number): string => value.toFixed(1);

/** Gentle hills or a far shoreline: a few long, low sine swells along the horizon. */
export function hillsPath(random: SeededRandom, horizon: number, maxHeight: number): string {
  const swells = random.integer(2, 4);
  const phase = random.between(0, Math.PI * 2);
  const height = random.between(maxHeight * 0.4, maxHeight);
  const points: string[] = [];
  for (let x = -MARGIN; x <= VIEW_WIDTH + MARGIN; x += 40) {
    const y = horizon - height * (1 + Math.sin((x / VIEW_WIDTH) * Math.PI * swells + phase)) - 10;
    points.push(`${fixed(x)},${fixed(y)}`);
  }
  const bottom = VIEW_HEIGHT + MARGIN;
  return `M${points.join(' L')} L${VIEW_WIDTH + MARGIN},${bottom} L${-MARGIN},${bottom} Z`;
}

/** A candle with its halo; the halo is what reads as warm light once blurred. */
export function candle(x: number, flameY: number, scale: number): string {
  return (
    `<rect x="${fixed(x - 9 * scale)}" y="${fixed(flameY + 14 * scale)}" width="${fixed(18 * scale)}" height="${fixed(100 * scale)}" class="candle"/>` +
    `<circle cx="${fixed(x)}" cy="${fixed(flameY)}" r="${fixed(150 * scale)}" fill="url(#flame)"/>`
  );
}

/** A wine glass: bowl and stem, standing on `baseY`. */
export function glass(x: number, baseY: number, scale: number): string {
  const height = 190 * scale;
  const width = 46 * scale;
  return (
    `<rect x="${fixed(x - width / 2)}" y="${fixed(baseY - height)}" width="${fixed(width)}" height="${fixed(height * 0.55)}" rx="${fixed(width / 2)}" class="glass"/>` +
    `<rect x="${fixed(x - 2.5 * scale)}" y="${fixed(baseY - height * 0.46)}" width="${fixed(5 * scale)}" height="${fixed(height * 0.46)}" class="glass"/>`
  );
}

/** One place setting: a plate in perspective with its rim, a wine glass and, sometimes, a candle. */
export function placeSetting(
  random: SeededRandom,
  x: number,
  y: number,
  scale: number,
  candleChance: number,
): string {
  const plateX = 170 * scale;
  const plateY = plateX * 0.3;
  const parts = [
    `<ellipse cx="${fixed(x)}" cy="${fixed(y)}" rx="${fixed(plateX)}" ry="${fixed(plateY)}" fill="url(#plate)"/>`,
    `<ellipse cx="${fixed(x)}" cy="${fixed(y)}" rx="${fixed(plateX * 0.62)}" ry="${fixed(plateY * 0.62)}" fill="none" stroke-width="${fixed(5 * scale)}" class="rim"/>`,
    glass(x + plateX * random.between(0.85, 1.15), y - plateY * 0.4, scale),
  ];
  if (random.next() < candleChance) {
    parts.push(candle(x - plateX * random.between(1.1, 1.4), y - 120 * scale, scale));
  }
  return parts.join('');
}

/** Out-of-focus lanterns on a string sagging across the picture. */
export function stringLights(random: SeededRandom, count: number, top: number): string {
  const circles: string[] = [];
  const sag = random.between(60, 200);
  for (let index = 0; index < count; index += 1) {
    const t = (index + random.between(-0.2, 0.2)) / (count - 1);
    const x = -80 + t * (VIEW_WIDTH + 160);
    const y = top + sag * 4 * t * (1 - t) + random.between(-20, 20);
    circles.push(
      `<circle cx="${fixed(x)}" cy="${fixed(y)}" r="${fixed(random.between(18, 46))}" opacity="${random.between(0.22, 0.55).toFixed(2)}"/>`,
    );
  }
  return circles.join('');
}

/** Faint, large bokeh discs scattered between `top` and `bottom`. */
export function strayLights(random: SeededRandom, count: number, top: number, bottom: number): string {
  const circles: string[] = [];
  for (let index = 0; index < count; index += 1) {
    circles.push(
      `<circle cx="${fixed(random.between(0, VIEW_WIDTH))}" cy="${fixed(random.between(top, bottom))}" r="${fixed(random.between(26, 90))}" opacity="${random.between(0.06, 0.22).toFixed(2)}"/>`,
    );
  }
  return circles.join('');
}

/** The sun's path on calm water: a soft column of light broken by faint, uneven ripples. */
export function sunReflection(random: SeededRandom, sunX: number, horizon: number, bottom: number): string {
  const depthOfWater = bottom - horizon;
  const parts = [
    `<ellipse cx="${fixed(sunX)}" cy="${fixed(horizon + depthOfWater / 2)}" rx="${fixed(random.between(110, 180))}" ry="${fixed(depthOfWater / 2)}" fill="url(#sun)" opacity="0.45"/>`,
  ];
  for (let y = horizon + 10; y < bottom - 10; y += random.between(18, 42)) {
    const depth = (y - horizon) / depthOfWater;
    const halfWidth = random.between(20, 60) + depth * random.between(40, 140);
    const x = sunX + random.between(-70, 70) * (0.3 + depth);
    const opacity = random.between(0.18, 0.5) * (1 - depth * 0.5);
    parts.push(
      `<rect class="reflection" x="${fixed(x - halfWidth)}" y="${fixed(y)}" width="${fixed(halfWidth * 2)}" height="${fixed(3 + depth * 5)}" rx="3" opacity="${opacity.toFixed(2)}"/>`,
    );
  }
  return parts.join('');
}
