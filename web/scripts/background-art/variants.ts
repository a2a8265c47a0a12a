import { BACKGROUND_WIDTH, type BackgroundName, type Theme } from '@keycard/contract';
import sharp, { type Sharp } from 'sharp';
import { BACKGROUND_HEIGHT } from './render.ts';

/**
 * The phone cut: the middle 9:16 of the picture at its full height. A phone held upright shows about
 * that much of the 16:9 picture under `object-fit: cover`, at the same resolution, so it looks the
 * same from under a third of the pixels.
 */
export const PHONE_WIDTH = Math.round((BACKGROUND_HEIGHT * 9) / 16);

export type VariantExtension = 'jpg' | 'avif' | 'webp';

/** The smaller forms of every background, beside the SPEC's 1920-wide JPEG. */
export const VARIANT_FORMS: readonly { readonly width: number; readonly extension: VariantExtension }[] = [
  { width: BACKGROUND_WIDTH, extension: 'avif' },
  { width: BACKGROUND_WIDTH, extension: 'webp' },
  { width: PHONE_WIDTH, extension: 'avif' },
  { width: PHONE_WIDTH, extension: 'webp' },
  { width: PHONE_WIDTH, extension: 'jpg' },
];

/**
 * Encoder settings chosen by eye against the JPEG on the dark scenes, where banding would show
 * first: soft gradients lose nothing visible to 4:2:0 colour, and AVIF's effort 2 costs a fifth of the
 * time of effort 4 for files about a quarter larger (about 10 KB instead of 8 KB at 1920).
 */
const ENCODERS: Record<VariantExtension, (image: Sharp) => Sharp> = {
  avif: (image) => image.avif({ quality: 50, effort: 2, chromaSubsampling: '4:2:0' }),
  webp: (image) => image.webp({ quality: 75, effort: 4 }),
  jpg: (image) => image.jpeg({ quality: 80, mozjpeg: true, progressive: true }),
};

/** Public path of one form: /images/background/{theme}/{width}/{name}.{extension}. */
export function variantPath(
  theme: Theme,
  name: BackgroundName,
  width: number,
  extension: VariantExtension,
): string {
  return `/images/background/${theme}/${width}/${name}.${extension}`;
}

export interface BackgroundVariant {
  readonly width: number;
  readonly extension: VariantExtension;
  readonly data: Buffer;
}

/** Every form of VARIANT_FORMS, made from the finished JPEG, so all forms show the same picture. */
export async function renderVariants(jpeg: Buffer): Promise<BackgroundVariant[]> {
  const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  const source = (width: number): Sharp => {
    const image = sharp(data, { raw });
    if (width === info.width) return image;
    return image.extract({ left: Math.round((info.width - width) / 2), top: 0, width, height: info.height });
  };
  return Promise.all(
    VARIANT_FORMS.map(async ({ width, extension }) => ({
      width,
      extension,
      data: await ENCODERS[extension](source(width)).toBuffer(),
    })),
  );
}
