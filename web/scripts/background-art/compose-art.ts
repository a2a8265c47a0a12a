import type { BackgroundName, Theme } from '@keycard/contract';
import { type ThemeColors, themeColors } from './palettes.ts';
import { fixed, MARGIN, VIEW_HEIGHT, VIEW_WIDTH } from './scene-parts.ts';
import { type Scene, sceneFor } from './scenes.ts';

/** One layer of the picture; layers are stacked in order, each blurred by `blur` (in 1920-wide units). */
export interface ArtLayer {
  readonly svg: string;
  readonly blur: number;
}

export interface ComposedArt {
  readonly layers: readonly ArtLayer[];
  /** The visible picture inside each rasterised layer, in pixels. */
  readonly crop: {
    readonly left: number;
    readonly top: number;
    readonly width: number;
    readonly height: number;
  };
}

/** Paint shared by all layers. Dark scenes are lit by their lights; light scenes are lit by day. */
function paint(colors: ThemeColors, scene: Scene, dark: boolean): string {
  const stop = (offset: number, color: string, opacity = 1): string =>
    `<stop offset="${offset}" stop-color="${color}" stop-opacity="${opacity}"/>`;
  return `<defs>
<linearGradient id="sky" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="${fixed(scene.horizon)}">${stop(0, colors.skyTop)}${stop(1, colors.skyHorizon)}</linearGradient>
<radialGradient id="sun">${stop(0, colors.glow, dark ? 0.55 : 0.9)}${stop(1, colors.glow, 0)}</radialGradient>
<radialGradient id="bokeh">${stop(0, colors.light)}${stop(0.7, colors.light, 0.85)}${stop(1, colors.light, 0)}</radialGradient>
<linearGradient id="water" x1="0" y1="0" x2="0" y2="1">${stop(0, colors.skyHorizon)}${stop(0.3, colors.water)}</linearGradient>
<linearGradient id="table" x1="0" y1="0" x2="0" y2="1">${stop(0, colors.tableBack)}${stop(1, colors.tableFront)}</linearGradient>
<radialGradient id="plate">${stop(0.6, colors.plate, dark ? 0.22 : 0.95)}${stop(1, colors.plate, dark ? 0.08 : 0.6)}</radialGradient>
<radialGradient id="flame">${stop(0, colors.light, dark ? 0.8 : 0.7)}${stop(0.25, colors.glow, dark ? 0.35 : 0.3)}${stop(1, colors.glow, 0)}</radialGradient>
<radialGradient id="vignette" r="0.75">${stop(0.55, colors.vignette, 0)}${stop(1, colors.vignette, dark ? 0.75 : 0.35)}</radialGradient>
<style>
.rim{stroke:${colors.plate};stroke-opacity:${dark ? 0.3 : 0.7}}
.glass{fill:${colors.light};fill-opacity:${dark ? 0.16 : 0.55}}
.candle{fill:${colors.plate};fill-opacity:${dark ? 0.35 : 0.8}}
.water{fill:url(#water)}
.reflection{fill:${colors.light}}
</style>
</defs>`;
}

/**
 * The picture as layers at `scale` (1 = 1920 × 1080), each drawn with a margin that `crop` removes.
 * Blurs are left to the caller: libvips blurs far faster than librsvg's SVG filters.
 */
export function composeArt(name: BackgroundName, theme: Theme, scale: number): ComposedArt {
  const colors = themeColors(name, theme);
  const scene = sceneFor(name);
  const dark = theme === 'dark';
  const width = VIEW_WIDTH + 2 * MARGIN;
  const height = VIEW_HEIGHT + 2 * MARGIN;
  const defs = paint(colors, scene, dark);
  const layer = (content: string, blur = 0): ArtLayer | undefined =>
    content
      ? {
          svg: `<svg xmlns="http://www.w3.org/2000/svg" width="${Math.round(width * scale)}" height="${Math.round(height * scale)}" viewBox="${-MARGIN} ${-MARGIN} ${width} ${height}">${defs}${content}</svg>`,
          blur,
        }
      : undefined;
  const table = `<rect x="${-MARGIN}" y="${fixed(scene.tableEdge)}" width="${width}" height="${fixed(VIEW_HEIGHT + MARGIN - scene.tableEdge)}" fill="url(#table)"/>`;
  const layers = [
    layer(
      `<rect x="${-MARGIN}" y="${-MARGIN}" width="${width}" height="${height}" fill="url(#sky)"/>` +
        `<ellipse cx="${fixed(scene.sunX)}" cy="${fixed(scene.horizon)}" rx="${scene.sunSize}" ry="${fixed(scene.sunSize * 0.56)}" fill="url(#sun)"/>`,
    ),
    layer(
      `<path d="${scene.far}" fill="${colors.far}" opacity="${dark ? 0.9 : 0.55}"/>` +
        `<rect x="${-MARGIN}" y="${fixed(scene.horizon - 50)}" width="${width}" height="100" fill="${colors.glow}" opacity="${dark ? 0.18 : 0.35}"/>`,
      30,
    ),
    layer(scene.water, 7),
    layer(`<g fill="url(#bokeh)">${scene.lights}</g>`),
    layer(table + scene.row, 10),
    layer(scene.near, 34),
    layer(`<rect width="${VIEW_WIDTH}" height="${VIEW_HEIGHT}" fill="url(#vignette)"/>`),
  ];
  const crop = {
    left: Math.round(MARGIN * scale),
    top: Math.round(MARGIN * scale),
    width: Math.round(VIEW_WIDTH * scale),
    height: Math.round(VIEW_HEIGHT * scale),
  };
  return { layers: layers.filter((entry) => entry !== undefined), crop };
}
