import { BACKGROUND_WIDTH, type BackgroundName, type Theme } from '@keycard/contract';
import sharp, { type Sharp } from 'sharp';
import { type ArtLayer, composeArt } from './compose-art.ts';
import { VIEW_WIDTH } from './scene-parts.ts';
import { seededRandom } from './seeded-random.ts';

/** Issue 2: every background file must stay at or under 150 KB (KB = 1000 bytes, the stricter reading). */
export const MAX_BACKGROUND_BYTES = 150_000;

/** 16:9 like the viewport the artwork is composed for. */
export const BACKGROUND_HEIGHT = Math.round((BACKGROUND_WIDTH * 9) / 16);

/**
 * The artwork is soft gradients and blurred shapes only, so it is rasterised at a quarter of the
 * width and scaled up: the result looks the same at a sixteenth of the pixels to draw and blur.
 */
const RASTER_SCALE = (BACKGROUND_WIDTH / VIEW_WIDTH) * 0.25;

/**
 * mozjpeg's trellis quantisation and quantisation table, without its scan optimisation: measured
 * here, that search costs half as much time again for about 6 % fewer bytes, and the files are far
 * below the cap anyway. Progressive, so a slow connection sees the mood early.
 */
const JPEG_OPTIONS = {
  trellisQuantisation: true,
  overshootDeringing: true,
  quantisationTable: 3,
  optimiseCoding: true,
  progressive: true,
} as const;

/** Tried in order until the file fits the cap; the first one normally does, with room to spare. */
const JPEG_QUALITIES = [82, 76, 70, 64, 58] as const;

/**
 * Grain strength in 8-bit levels. Dithering hides the contour bands that smooth dark gradients
 * otherwise show after 8-bit quantisation and JPEG's 8×8 blocks; dark tones need a little more.
 */
const GRAIN: Record<Theme, number> = { dark: 2.5, light: 1.5 };

let grainField: Float32Array | undefined;

/** One fixed, seeded noise field (triangular in [-1, 1]) shared by all images, so output is reproducible. */
function grain(): Float32Array {
  if (!grainField) {
    // Any fixed seed will do; this one spells "keyc".
    const random = seededRandom(0x6b657963);
    grainField = new Float32Array(BACKGROUND_WIDTH * BACKGROUND_HEIGHT);
    for (let index = 0; index < grainField.length; index += 1) {
      grainField[index] = random.next() + random.next() - 1;
    }
  }
  return grainField;
}

/** Adds the same luminance grain to all three channels, so it never shows as coloured speckle. */
function addGrain(rgb: Buffer, strength: number): Buffer {
  const field = grain();
  // A clamped array rounds and clips on assignment, which keeps this loop cheap.
  const out = new Uint8ClampedArray(rgb.length);
  for (let pixel = 0, offset = 0; pixel < field.length; pixel += 1, offset += 3) {
    const delta = (field[pixel] ?? 0) * strength;
    out[offset] = (rgb[offset] ?? 0) + delta;
    out[offset + 1] = (rgb[offset + 1] ?? 0) + delta;
    out[offset + 2] = (rgb[offset + 2] ?? 0) + delta;
  }
  return Buffer.from(out.buffer);
}

interface RawImage {
  readonly data: Buffer;
  readonly raw: { readonly width: number; readonly height: number; readonly channels: 1 | 2 | 3 | 4 };
}

/**
 * Raw pixels with a plain descriptor. sharp reports `premultiplied: true` for the raw output of a
 * blurred RGBA pipeline although the bytes are already un-premultiplied; passing that info back in
 * as input would make it divide by alpha twice and blow out every soft edge.
 */
async function toRaw(pipeline: Sharp): Promise<RawImage> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, raw: { width: info.width, height: info.height, channels: info.channels } };
}

function rasteriseLayer(layer: ArtLayer): Promise<RawImage> {
  const pipeline = sharp(Buffer.from(layer.svg));
  // sharp blurs with premultiplied alpha, so soft edges do not darken towards transparent pixels.
  const sigma = layer.blur * RASTER_SCALE;
  return toRaw(sigma > 0 ? pipeline.blur(sigma) : pipeline);
}

/** Stacks the layers at raster scale, then crops the margin and scales to the final size. */
async function rasterise(name: BackgroundName, theme: Theme): Promise<RawImage> {
  const { layers, crop } = composeArt(name, theme, RASTER_SCALE);
  const [base, ...overlays] = await Promise.all(layers.map(rasteriseLayer));
  if (!base) {
    throw new Error('artwork has no layers');
  }
  const stacked = await toRaw(
    sharp(base.data, { raw: base.raw }).composite(
      overlays.map((overlay) => ({ input: overlay.data, raw: overlay.raw })),
    ),
  );
  // A second pipeline because within one, sharp applies extract and resize before composite.
  return toRaw(
    sharp(stacked.data, { raw: stacked.raw })
      .extract(crop)
      .removeAlpha()
      .resize(BACKGROUND_WIDTH, BACKGROUND_HEIGHT, { kernel: 'linear', fit: 'fill' }),
  );
}

export interface RenderedBackground {
  readonly jpeg: Buffer;
  readonly quality: number;
}

/** Renders one background as a JPEG of BACKGROUND_WIDTH × BACKGROUND_HEIGHT within MAX_BACKGROUND_BYTES. */
export async function renderBackground(name: BackgroundName, theme: Theme): Promise<RenderedBackground> {
  const image = await rasterise(name, theme);
  const pixels = addGrain(image.data, GRAIN[theme]);
  for (const quality of JPEG_QUALITIES) {
    const jpeg = await sharp(pixels, { raw: image.raw })
      .jpeg({ ...JPEG_OPTIONS, quality })
      .toBuffer();
    if (jpeg.byteLength <= MAX_BACKGROUND_BYTES) {
      return { jpeg, quality };
    }
  }
  throw new Error(
    `background ${theme}/${name} does not fit ${MAX_BACKGROUND_BYTES} bytes even at quality ${JPEG_QUALITIES.at(-1)}`,
  );
}
